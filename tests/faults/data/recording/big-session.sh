#!/bin/sh
# A "real CLI" whose session is $SESSION_BYTES bytes of 1000-byte lines on stdout (its arguments
# are ignored).
head -c "${SESSION_BYTES:-1000000}" /dev/zero | tr '\0' a | fold -w 1000

#!/bin/sh
# A "real CLI" that writes 1 MB while the recording's disk is full, then frees the disk (removes
# $FILLER, the file that filled it) and writes 1 MB more: the recorder must retry, not give up.
head -c 1000000 /dev/zero | tr '\0' a | fold -w 1000
sleep 0.3
rm -f "$FILLER"
head -c 1000000 /dev/zero | tr '\0' b | fold -w 1000

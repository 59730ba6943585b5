#!/bin/sh
# A CLI whose stdout is invalid UTF-8, NUL bytes and an unterminated line.
printf 'ok \377\376 end\n'
printf 'a\000b\n'
printf 'tail without newline'

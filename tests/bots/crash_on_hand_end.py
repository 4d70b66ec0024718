#!/usr/bin/env python3
# Plays correctly until a hand ends: exits with status 1 when it reads hand_end.
import sys

from botlib import run


def on_line(line):
    if '"type":"hand_end"' in line:
        sys.stderr.write("hand_end: not implemented\n")
        sys.exit(1)


run(on_line=on_line)

#!/usr/bin/env python3
# Answers hello with ready, then exits at its first turn: it never answers one.
import sys

from botlib import run


def on_line(line):
    if '"type":"turn"' in line:
        sys.stderr.write("no strategy yet\n")
        sys.exit(2)


run(on_line=on_line)

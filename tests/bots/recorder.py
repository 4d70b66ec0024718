#!/usr/bin/env python3
# Plays the first legal move and appends every line it receives to the file named by its first argument.
import sys

from botlib import run

log = open(sys.argv[1], "a", encoding="utf-8")


def record(line):
    log.write(line if line.endswith("\n") else line + "\n")
    log.flush()


run(on_line=record)

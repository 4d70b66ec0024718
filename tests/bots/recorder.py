#!/usr/bin/env python3
# Plays the first legal move and writes every line it receives to DIR/<pid>.log, DIR being its first argument.
import os
import sys

from botlib import run

log = open(os.path.join(sys.argv[1], f"{os.getpid()}.log"), "w", encoding="utf-8")


def record(line):
    log.write(line if line.endswith("\n") else line + "\n")
    log.flush()


run(on_line=record)

#!/usr/bin/env python3
# Answers every turn with index 0, but holds each answer while the file named
# by its first argument exists (writing `GATE.waiting` beside it, to say so):
# a test holds a running league at a known point, then lets it go on.
import os
import sys
import time

from botlib import alive, run

GATE = sys.argv[1]


def hold(_line):
    while os.path.exists(GATE) and alive():
        open(GATE + ".waiting", "w").close()
        time.sleep(0.02)


run(on_line=hold)

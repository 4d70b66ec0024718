#!/usr/bin/env python3
# Plays the first legal move after 40 ms, so that a game lasts long enough to be followed move by move.
import time

from botlib import run


def slow(line):
    if '"turn"' in line:
        time.sleep(0.04)


run(on_line=slow)

#!/usr/bin/env python3
# Plays 3 turns, then allocates memory without limit.
from botlib import run


def hog(turn):
    blocks = []
    while True:
        blocks.append(bytearray(16 << 20))


run(hog)

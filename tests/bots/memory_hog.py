#!/usr/bin/env python3
# Plays 3 turns, then allocates memory without limit.
from botlib import alive, run


def hog(turn):
    blocks = []
    while alive():
        blocks.append(bytearray(16 << 20))


run(hog)

#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with a 100 MB line, then plays on.
import sys

from botlib import run


def huge(turn):
    chunk = "x" * (1 << 20)
    for _ in range(100):
        sys.stdout.write(chunk)
    sys.stdout.write("\n")
    sys.stdout.flush()


run(huge)

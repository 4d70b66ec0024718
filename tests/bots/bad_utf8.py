#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with bytes that are not UTF-8, then plays on.
import sys

from botlib import run


def garbage(turn):
    sys.stdout.flush()
    sys.stdout.buffer.write(b"\xff\xfe{\"type\":\"move\"}\n")
    sys.stdout.buffer.flush()


run(garbage)

#!/usr/bin/env python3
# Plays 3 turns, writes half of the 4th answer (no newline), then hangs.
import sys

from botlib import run, sleep_forever


def half(turn):
    sys.stdout.write("{\"type\":\"move\",\"id\":%d," % turn["id"])
    sys.stdout.flush()
    sleep_forever()


run(half)

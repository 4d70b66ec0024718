#!/usr/bin/env python3
# Plays 3 turns; when the 4th arrives, closes its stdout (fd 1) and sleeps forever.
import os

from botlib import run, sleep_forever


def misbehave(turn):
    os.close(1)
    sleep_forever()


run(misbehave)

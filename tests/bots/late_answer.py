#!/usr/bin/env python3
# Plays 3 turns, answers the 4th only after sleeping 3 s (past the deadline), then plays on.
import time

from botlib import run, send


def late(turn):
    time.sleep(3)
    send({"type": "move", "id": turn["id"], "index": 0})


run(late)

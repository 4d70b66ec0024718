#!/usr/bin/env python3
# Plays 3 turns, answers the 4th only 0.5 s past its deadline (the turn's
# `time_ms`, whatever limit the test gives), then plays on.
import time

from botlib import run, send


def late(turn):
    time.sleep(turn["time_ms"] / 1000 + 0.5)
    send({"type": "move", "id": turn["id"], "index": 0})


run(late)

#!/usr/bin/env python3
# Answers its first turn twice (the second answer is read as the answer to its next turn).
from botlib import run, send


def twice(turn):
    send({"type": "move", "id": turn["id"], "index": 0})
    send({"type": "move", "id": turn["id"], "index": 0})


run(twice, at=1)

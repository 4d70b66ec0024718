#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with the turn's id + 1000, then plays on.
from botlib import run, send

run(lambda turn: send({"type": "move", "id": turn["id"] + 1000, "index": 0}))

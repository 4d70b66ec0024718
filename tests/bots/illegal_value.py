#!/usr/bin/env python3
# Plays 3 turns, answers the 4th by value with a tile it does not hold ([9,9]), then plays on.
from botlib import run, send

run(lambda turn: send({"type": "move", "id": turn["id"], "move": {"tile": [9, 9], "end": 0}}))

#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with index = len(legal) (out of range), then plays on.
from botlib import run, send

run(lambda turn: send({"type": "move", "id": turn["id"], "index": len(turn["legal"])}))

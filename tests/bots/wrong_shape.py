#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with well-formed JSON of the wrong shape (`idx`), then plays on.
from botlib import run, send

run(lambda turn: send({"type": "move", "id": turn["id"], "idx": 0}))

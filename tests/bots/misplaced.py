#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with a `ready` message instead of a move, then plays on.
from botlib import run, send

run(lambda turn: send({"type": "ready", "name": "x"}))

#!/usr/bin/env python3
# Plays 3 turns, then wraps its 4th move in form feeds, which are not JSON whitespace.
import json

from botlib import run, send_line

run(lambda turn: send_line("\x0c" + json.dumps({"type": "move", "id": turn["id"], "index": 0}) + "\x0c"))

#!/usr/bin/env python3
# Answers its first turn twice, both lines in one write (the second one is there
# before the arena sends the next turn).
import json

from botlib import run, send_line


def twice(turn):
    move = json.dumps({"type": "move", "id": turn["id"], "index": 0}, separators=(",", ":"))
    send_line(move + "\n" + move)


run(twice, at=1)

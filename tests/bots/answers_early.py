#!/usr/bin/env python3
# Writes every move ahead of time: with its answer to a turn it writes, in the
# same write, a move for the next turn (the next id, index 0), before that turn is sent.
import json
import sys

from botlib import NAME, send, send_line

ahead = None
for line in sys.stdin:
    if not line.strip():
        continue
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "ready", "name": NAME})
    elif message["type"] == "turn":
        lines = [] if message["id"] == ahead else [{"type": "move", "id": message["id"], "index": 0}]
        ahead = message["id"] + 1
        lines.append({"type": "move", "id": ahead, "index": 0})
        send_line("\n".join(json.dumps(line, separators=(",", ":")) for line in lines))
    elif message["type"] == "bye":
        break

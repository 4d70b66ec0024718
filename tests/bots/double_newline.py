#!/usr/bin/env python3
# Answers every turn with print(answer + "\n"): an empty line follows each answer.
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "double-newline"}), flush=True)
    elif message["type"] == "turn":
        print(json.dumps({"type": "move", "id": message["id"], "index": 0}) + "\n", flush=True)
    elif message["type"] == "bye":
        break

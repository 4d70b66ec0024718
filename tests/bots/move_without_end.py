#!/usr/bin/env python3
# Names its moves by value with the tile only, leaving out `end`.
import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "no-end"}), flush=True)
    elif message["type"] == "turn":
        tile = message["legal"][0]["tile"]
        print(json.dumps({"type": "move", "id": message["id"], "move": {"tile": tile}}), flush=True)
    elif message["type"] == "bye":
        break

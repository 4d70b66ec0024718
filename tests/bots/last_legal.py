#!/usr/bin/env python3
# A well-behaved bot of any game: answers every turn with its last legal choice.
import json
import sys

for line in sys.stdin:
    message = json.loads(line) if line.strip() else {}
    if message.get("type") == "hello":
        print(json.dumps({"type": "ready", "name": "last_legal"}), flush=True)
    elif message.get("type") == "turn":
        print(json.dumps({"type": "move", "id": message["id"], "index": len(message["legal"]) - 1}), flush=True)
    elif message.get("type") == "bye":
        break

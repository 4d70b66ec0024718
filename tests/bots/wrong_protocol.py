#!/usr/bin/env python3
# Answers hello with a ready that claims protocol version 2, then plays the first legal move.
import sys

from botlib import send

for line in sys.stdin:
    if '"type":"hello"' in line:
        send({"type": "ready", "name": "wrong_protocol", "protocol": 2})
    elif '"type":"turn"' in line:
        send({"type": "move", "id": 0, "index": 0})

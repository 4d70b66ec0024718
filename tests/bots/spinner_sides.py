#!/usr/bin/env python3
# Names its moves by value, and believes the spinner's short ends open as soon as
# it is played: while an end shows a double (counts twice its pips) and end 2 is
# not open, it plays a matching tile on end 2, which is illegal.
import json
import sys

from botlib import send


def choose(turn):
    state = turn["state"]
    ids = [end["id"] for end in state["ends"]]
    for end in state["ends"]:
        if end["pips"] > 0 and end["counts"] == 2 * end["pips"] and 2 not in ids:
            for tile in state["hand"]:
                if end["pips"] in tile:
                    return {"tile": tile, "end": 2}
    first = turn["legal"][0]
    return {"tile": first["tile"], "end": first["end"]}


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        send({"type": "ready", "name": "spinner_sides"})
    elif message["type"] == "turn":
        send({"type": "move", "id": message["id"], "move": choose(message)})
    elif message["type"] == "bye":
        break

#!/usr/bin/env python3
"""A Leduc bot that plays a script by seat, naming each move by value.

Each argument of the form `SEAT:ACTION,ACTION,...` (others are ignored); in every game, the bot's n-th
turn in seat SEAT is answered with the n-th action listed for that seat.
For the worked example of RULES.md: `0:raise,call,raise 1:call,raise,call`.
It exits on bye or at the end of its input.
"""
import json
import sys

script = {int(arg.split(":")[0]): arg.split(":")[1].split(",") for arg in sys.argv[1:] if arg[:1].isdigit()}
seat, turns = None, 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(json.dumps({"type": "ready", "name": "leduc-script"}), flush=True)
    elif kind == "game_start":
        seat, turns = message["seat"], 0
    elif kind == "turn":
        action = script[seat][turns]
        turns += 1
        print(json.dumps({"type": "move", "id": message["id"], "move": {"action": action}}), flush=True)
    elif kind == "bye":
        break

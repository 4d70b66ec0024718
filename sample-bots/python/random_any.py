#!/usr/bin/env python3
"""random_any.py: a sample bot for any game of the bot arena (Python 3, standard library only).

It plays a legal choice at random, drawn from a generator seeded with the
seed each `game_start` gives, so that the same match gives the same games.
It reads nothing of the game itself: it is the opponent to beat in any
engine's league, built in or a program (engines/ENGINES.md).

Run it in a league of an OpenSpiel game:
    target/release/arena league --engine "python3 engines/openspiel/bridge.py kuhn_poker" \\
        --bot random="python3 sample-bots/python/random_any.py" --bot rules="node sample-bots/js/kuhn.js"

Log to stderr, never to stdout.
"""
import json
import random
import sys

NAME = "random-any-py"


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            print(json.dumps({"type": "ready", "name": NAME, "protocol": 1}), flush=True)
        elif kind == "game_start":
            rng = random.Random(message["seed"])
        elif kind == "turn":
            index = rng.randrange(len(message["legal"]))
            print(json.dumps({"type": "move", "id": message["id"], "index": index}), flush=True)
        elif kind == "bye":
            break


if __name__ == "__main__":
    main()

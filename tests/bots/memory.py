#!/usr/bin/env python3
# Remembers what it was dealt, as the review's memory bot did, to recognise
# a deal it meets again (in another order of the bots, or another group):
# by the seed it is told for its seat, and by the tiles of its first hand.
# It keeps them in memory and in files that may outlive the process: in
# its /tmp (the sandbox's, or the host's) and, if it can write there, in
# its working directory. At each game_end it reports on stderr ("memory: "
# and JSON) whether this game's seed or first hand was one it had seen
# ("seen_seed", "seen_hand": a hit), and where it could keep them.
import json
import os
import sys
import tempfile

from botlib import run

PLACES = [os.path.join(tempfile.gettempdir(), "arena-memory-bot.json"), os.path.abspath("arena-memory-bot.json")]
seen = {"seeds": [], "hands": []}
for place in PLACES:
    try:
        with open(place) as f:
            kept = json.load(f)
        seen["seeds"] += kept["seeds"]
        seen["hands"] += kept["hands"]
    except (OSError, ValueError):
        pass
game = {}


def keep():
    kept = []
    for place in PLACES:
        try:
            with open(place, "w") as f:
                json.dump(seen, f)
            kept.append(place)
        except OSError:
            pass
    return kept


def on_line(line):
    message = json.loads(line) if line.strip() else {}
    kind = message.get("type")
    if kind == "game_start":
        game.clear()
        game.update(id=message["id"], seed=message["seed"], seen_seed=message["seed"] in seen["seeds"])
        seen["seeds"].append(message["seed"])
    elif kind == "hand_start" and message.get("hand") == 1 and "tiles" in message:
        hand = sorted(map(tuple, message["tiles"]))
        game["seen_hand"] = [list(t) for t in hand] in seen["hands"]
        seen["hands"].append([list(t) for t in hand])
    elif kind == "game_end":
        game["kept"] = keep()
        print("memory: " + json.dumps(game), file=sys.stderr, flush=True)


run(on_line=on_line)

#!/usr/bin/env python3
"""A deterministic bot that plays many games at once in one process (a session).

Usage: batches.py GAMES [MISBEHAVIOUR] [any-seat]

With GAMES of 1 or more it says `"games": GAMES` at ready; it names the
game of each answer whose turn named one (a session's), and of none when
the arena plays it one game at a time; with 0 it never says `games`.
Each game's moves come from a generator seeded by its game_start seed, so
both ways play a deal alike. Turns are collected until every open game has
one, or no more lines arrive within 5 ms, then answered last first: out of
the order asked.

MISBEHAVIOUR, if given: `untagged` (an answer names no game), `illegal-second`
(an illegal move in the second game it is given, its other games played well).
With `any-seat`, its ready also says `"any_seat": true` (it keeps nothing of a seat).
"""
import json
import os
import random
import select
import sys

from botlib import alive

GAMES = int(sys.argv[1])
MISBEHAVIOUR = next((word for word in sys.argv[2:] if word in ("untagged", "illegal-second")), "")
ANY_SEAT = "any-seat" in sys.argv[2:]


def answer(game, turn, rng, nth):
    index = rng.randrange(len(turn["legal"]))
    if MISBEHAVIOUR == "illegal-second" and nth == 2:
        index = len(turn["legal"])
    move = {"type": "move", "id": turn["id"], "index": index}
    if game is not None and MISBEHAVIOUR != "untagged":
        move["game"] = game
    return json.dumps(move, separators=(",", ":")) + "\n"


def main():
    rngs, order, pending, buffer = {}, {}, [], b""
    while alive():
        # Every open game waits for an answer, or nothing more came within 5 ms: answer them all.
        everyone = pending and len(pending) >= len(rngs)
        waiting = [] if everyone else [0] if not pending else select.select([0], [], [], 0.005)[0]
        if not waiting:
            # A turn of a game that ended meanwhile (forfeited) is not answered.
            answers = [answer(g, t, rngs[g], order[g]) for g, t in reversed(pending) if g in rngs]
            sys.stdout.write("".join(answers))
            sys.stdout.flush()
            pending = []
            continue
        chunk = os.read(0, 65536)
        if not chunk:
            return
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            kind, game = message["type"], message.get("game")
            if kind == "hello":
                ready = {"type": "ready", "name": "batches", "protocol": 1}
                if GAMES:
                    ready["games"] = GAMES
                if ANY_SEAT:
                    ready["any_seat"] = True
                sys.stdout.write(json.dumps(ready) + "\n")
                sys.stdout.flush()
            elif kind == "game_start":
                rngs[game] = random.Random(message["seed"])
                order[game] = len(order) + 1
            elif kind == "turn":
                pending.append((game, message))
            elif kind == "game_end":
                rngs.pop(game, None)
            elif kind == "bye":
                return


main()

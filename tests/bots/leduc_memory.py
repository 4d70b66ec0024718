#!/usr/bin/env python3
"""A Leduc bot that cheats with its memory, and its honest twin.

It recognises a deal it meets again by the seed it is told for its seat
(the same in every order of the bots of one deal) and keeps, per seed, what
the game showed: the public card and the cards shown at the showdown (seat
by seat: a seat holds the same card in every game of a deal).

- On a deal it has not met, it calls every bet, to see the showdown.
- On a deal it has met, it knows the public card and the other seats'
  cards: it raises with the best hand, folds a lost one, and calls when it
  does not know.

With `--forget` it keeps nothing: the honest twin, which calls every bet of
every game. The two differ only on deals the bot has met before.
"""
import json
import sys

RANKS = {rank: i for i, rank in enumerate("TJQKA")}
FORGET = "--forget" in sys.argv[1:]
seen = {}  # seat seed -> {"public": card, "shown": [card or None per seat]}
game = {}


def strength(card, public):
    """A pair with the public card beats every other hand; then the rank."""
    return (1 if card[0] == public[0] else 0, RANKS[card[0]])


def best_hand(mine, known):
    """Whether my card beats every other seat's known card (None: unknown)."""
    public, shown, seat = known["public"], known["shown"], game["seat"]
    if public is None or shown is None:
        return None
    others = [card for s, card in enumerate(shown) if s != seat]
    if any(card is None for card in others):
        return None
    mine = strength(mine, public)
    return all(mine > strength(card, public) for card in others)


def choose(state, legal):
    actions = [move["action"] for move in legal]
    known = None if FORGET else seen.get(game["seed"])
    wins = best_hand(state["card"], known) if known else None
    if wins is True and "raise" in actions:
        return actions.index("raise")
    if wins is False and "fold" in actions:
        return actions.index("fold")
    return actions.index("call")


def on(message):
    kind = message.get("type")
    if kind == "hello":
        return {"type": "ready", "name": "leduc-memory", "version": "1", "protocol": 1}
    if kind == "game_start":
        game.clear()
        game.update(seed=message["seed"], seat=message["seat"], public=None, shown=None)
    elif kind == "public":
        game["public"] = message["card"]
    elif kind == "hand_end":
        game["shown"] = message.get("shown")
    elif kind == "game_end" and not FORGET and game.get("seed") not in seen:
        seen[game["seed"]] = {"public": game["public"], "shown": game["shown"]}
    elif kind == "turn":
        return {"type": "move", "id": message["id"], "index": choose(message["state"], message["legal"])}
    elif kind == "bye":
        sys.exit(0)
    return None


for line in sys.stdin:
    if not line.strip():
        continue
    answer = on(json.loads(line))
    if answer is not None:
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()

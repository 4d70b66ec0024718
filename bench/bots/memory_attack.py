#!/usr/bin/env python3
"""A Leduc bot that remembers deals within its process, and its honest twin.

A process kept for several games may meet a deal again, in another order
of the bots over the seats (a process always plays one seat, and a seat
holds the same card in every game of a deal): with `--restart off`, at 3
and 4 players; never with `--restart lane` (a process meets each deal of
its lane once) nor `game`. This bot keeps, for each game it played, what
the game revealed (the cards shown, the public card), keyed by the deal as
it can recognise it:
- by the seed `game_start` gives its seat (the same in every game of a deal);
- by its own card: the deal it last saw with that card at its seat, as long
  as that deal has games left to play (fewer than N! seen): a weak key, for
  a seed that would change from game to game, used only while its guesses,
  checked against the cards each game revealed, were right more often than
  not (the bot keeps the score of every guess, used or not).
On a deal it recognises, it plays knowing every card (see attacklib.py's
strategy); it takes a remembered deal only if its own card is the card
remembered at its seat, and the public card and another seat's card are known.

Options: --honest (the twin: the same strategy, no memory), --by seed|card|both
(default both). Each game ends with a line "attack: {json}" on stderr, as
pagecache.py's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacklib import flag, leduc_choose, messages, option, ready, report, send  # noqa: E402
from leducgame import Game  # noqa: E402

HONEST = flag("--honest")
BY = option("--by", "both")
# The card key is used while its messages, checked against what the games revealed, were right more often
# than not (a Laplace estimate: it starts at 1/2, tried).
TRUST = 0.5


def main():
    hello, game, position = {}, None, 0
    by_seed, by_card = {}, {}
    card_record = [0, 0]
    received, source, known, public, tried, shadow = None, None, {}, None, False, None
    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            ready("memory-honest" if HONEST else "memory")
        elif kind == "game_start":
            game = Game(hello, position)
            game.on(message)
            received, source, known, public, tried, shadow = None, None, {}, None, False, None
        elif kind in ("deal", "public", "hand_end"):
            game.on(message)
        elif kind == "turn":
            if not HONEST and not tried:
                tried = True
                if BY in ("seed", "both") and game.accepts(by_seed.get(game.seed)):
                    received, source = by_seed[game.seed], "seed"
                if BY in ("card", "both") and game.accepts(by_card.get(game.card)):
                    shadow = by_card[game.card]
                    right, wrong = card_record
                    if received is None and (right + 1) / (right + wrong + 2) > TRUST:
                        received, source = shadow, "card"
                if received is not None:
                    known, public = game.known(received), received["public"]
            index = leduc_choose(message["state"], message["legal"], game.seat, known, public)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if not HONEST:
                if shadow is not None and game.check(shadow) is not None:
                    card_record[0 if game.check(shadow) else 1] += 1
                learned = game.learned(received)
                by_seed[game.seed] = learned
                by_card[game.card] = learned
                report({"attack": "memory", "game": message["id"], "seat": game.seat, "seed": game.seed,
                        "position": position, "card": game.card, "received": received is not None,
                        "source": source, "cards": received["cards"] if received else None,
                        "public": received["public"] if received else None,
                        "g": received["g"] if received else None, "self_check": game.check(received),
                        "card_record": card_record})
            position += 1
        elif kind == "bye":
            break


main()

#!/usr/bin/env python3
"""A Leduc bot that remembers deals within its process, and its honest twin.

A process kept for several games may meet a deal again, in another order
of the bots over the seats (a process always plays one seat, and a seat
holds the same card in every game of a deal). This bot keeps, for each
game it played, what the game revealed (the cards shown, the public card),
keyed by the deal as it can recognise it:
- by the seed `game_start` gives its seat (the same in every game of a deal);
- by its own card together with the deal it last saw with that card at its
  seat, as long as that deal has games left to play (fewer than N! seen):
  a weaker key, for a seed that would change from game to game.
On a deal it recognises, it plays knowing every card (see attacklib.py's
strategy); it takes a remembered deal only if its own card is the card
remembered at its seat, and the public card and another seat's card are known.

Options: --honest (the twin: the same strategy, no memory), --by seed|card|both
(default seed; the card alone is a weak key: within one process's memory a
deal's games-played count never reaches N!, so a new deal whose card at its
seat matches is taken for the old one). Each game ends with a line "attack: {json}"
on stderr, as pagecache.py's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacklib import flag, leduc_choose, messages, option, ready, report, send  # noqa: E402
from leducgame import Game  # noqa: E402

HONEST = flag("--honest")
BY = option("--by", "seed")


def main():
    hello, game, position = {}, None, 0
    by_seed, by_card = {}, {}
    received, source, known, public, tried = None, None, {}, None, False
    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            ready("memory-honest" if HONEST else "memory")
        elif kind == "game_start":
            game = Game(hello, position)
            game.on(message)
            received, source, known, public, tried = None, None, {}, None, False
        elif kind in ("deal", "public", "hand_end"):
            game.on(message)
        elif kind == "turn":
            if not HONEST and not tried:
                tried = True
                candidates = []
                if BY in ("seed", "both"):
                    candidates.append(("seed", by_seed.get(game.seed)))
                if BY in ("card", "both"):
                    candidates.append(("card", by_card.get(game.card)))
                for name, candidate in candidates:
                    if game.accepts(candidate):
                        received, source = candidate, name
                        known, public = game.known(candidate), candidate["public"]
                        break
            index = leduc_choose(message["state"], message["legal"], game.seat, known, public)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if not HONEST:
                learned = game.learned(received)
                by_seed[game.seed] = learned
                by_card[game.card] = learned
                report({"attack": "memory", "game": message["id"], "seat": game.seat, "seed": game.seed,
                        "position": position, "card": game.card, "received": received is not None,
                        "source": source, "cards": received["cards"] if received else None,
                        "public": received["public"] if received else None,
                        "g": received["g"] if received else None, "self_check": game.check(received)})
            position += 1
        elif kind == "bye":
            break


main()

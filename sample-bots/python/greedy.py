#!/usr/bin/env python3
"""greedy.py: a sample All Fives bot for the bot arena (Python 3, standard library only).

It plays the legal move that scores the most points at once; ties go to the
heaviest tile (tiles left in hand cost points when the hand ends), then to the
earliest move in the `legal` list.

Run it in a match:
    target/release/arena match --bot py="python3 sample-bots/python/greedy.py" --bot greedy=target/release/greedy-bot

To write your own bot, copy this file and change `choose`. The arena talks to
the bot with one JSON object per line on stdin; the bot answers on stdout.
Log to stderr, never to stdout.
"""
import json
import random
import sys

NAME = "greedy-py"

# Reseeded from each game's seed, so a bot that uses it replays the same way.
rng = random.Random(0)


def choose(state, legal):
    """Return the index in `legal` of the move to play.

    state: {"hand_number", "hand": [[a, b], ...], "ends": [{"id", "pips", "counts"}, ...],
            "scores", "hand_sizes", "boneyard", "drawable"}
    legal: [{"tile": [a, b], "end": id or None for the lead, "points": scored at once}, ...]
           (never empty)
    """
    # The largest key wins: most points, then most pips, then lowest index.
    return max(range(len(legal)), key=lambda i: (legal[i]["points"], sum(legal[i]["tile"]), -i))


def send(message):
    """Write one message as one line and flush it at once."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != 1:
                print(f"{NAME}: unsupported protocol version {message.get('protocol')!r}", file=sys.stderr)
                sys.exit(1)
            # It takes nothing from hello's seat, so it may play any seat (see PROTOCOL.md).
            send({"type": "ready", "name": NAME, "version": "1.0", "protocol": 1, "any_seat": True})
        elif kind == "game_start":
            rng.seed(message["seed"])
        elif kind == "turn":
            index = choose(message["state"], message["legal"])
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "bye":
            break
        # Anything else (hand_start, play, draw, pass, hand_end, game_end, or a
        # type added later) is ignored here; track the events if your bot needs them.


if __name__ == "__main__":
    main()

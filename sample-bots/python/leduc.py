#!/usr/bin/env python3
"""leduc.py: a sample Leduc Hold'em bot for the bot arena (Python 3, standard library only).

It plays by rules of thumb on the strength of its hand, exactly as the Rust
`leduc-bot --play rules` does:
- round 1: the top rank (K with 2 players, A with 3 or 4) raises while it
  may, else calls; the rank below it calls; anything lower checks when it
  can and folds when it owes chips;
- round 2: a pair with the public card raises while it may, else calls; the
  top rank calls; anything else checks when it can and folds when it owes.

Run it in a match:
    target/release/arena match --game leduc --bot py="python3 sample-bots/python/leduc.py" \\
        --bot rules="target/release/leduc-bot --play rules"

The arena talks to the bot with one JSON object per line on stdin; the bot
answers on stdout. Log to stderr, never to stdout.
"""
import json
import sys

NAME = "leduc-py"
RANKS = "TJQKA"


def choose(state, legal):
    """Return the index in `legal` of the move to play.

    state: {"round": 1 or 2, "card": "Js", "public": "Kh" or None, "pot", "put_in": [...],
            "folded": [...], "raises", "owed", "bet"}
    legal: [{"action": "fold" | "call" | "raise", "chips": added to the pot}, ...]
           in the order fold, call, raise (fold only when chips are owed)
    """
    actions = [move["action"] for move in legal]
    top = RANKS.index("K") if len(state["put_in"]) == 2 else RANKS.index("A")
    rank = RANKS.index(state["card"][0])
    if state["round"] == 1:
        strong, fair = rank == top, rank == top - 1
    else:
        strong, fair = rank == RANKS.index(state["public"][0]), rank == top
    if strong:
        wanted = "raise" if "raise" in actions else "call"
    elif fair or state["owed"] == 0:
        wanted = "call"
    else:
        wanted = "fold"
    return actions.index(wanted)


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
            send({"type": "ready", "name": NAME, "version": "1.0", "protocol": 1})
        elif kind == "turn":
            send({"type": "move", "id": message["id"], "index": choose(message["state"], message["legal"])})
        elif kind == "bye":
            break
        # Anything else (deal, act, public, hand_end, game_start, game_end, or a
        # type added later) is ignored here; track the events if your bot needs them.


if __name__ == "__main__":
    main()

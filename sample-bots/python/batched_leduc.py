#!/usr/bin/env python3
"""batched_leduc.py: a sample Leduc Hold'em bot that batches a small neural
network across many games played at once in one process (Python 3 and numpy).

Install numpy first: `python3 -m pip install numpy`.

The network (fixed random weights: it shows the plumbing, not strength)
scores fold, call and raise from the position; the bot plays the best legal
one. Evaluated alone, a position costs about a millisecond (a 1024-wide
layer read from memory for one row); evaluated together, the positions of
many games share each pass over the weights. So the bot says at `ready`
that it plays up to 64 games at once (`"games": 64`): the arena then sends
it the lines of up to 64 games, each naming its game, and the bot collects
the turns that arrive, evaluates them in one batch, and answers each,
naming its game. Played one game at a time (lines naming no game), it
answers each turn alone.

Run it in a match:
    target/release/arena match --game leduc --concurrency 64 \\
        --bot net="python3 sample-bots/python/batched_leduc.py" --bot rules="target/release/leduc-bot --play rules"

Log to stderr, never to stdout.
"""
import json
import os
import select
import sys

# One thread: the batch is the speed-up, and many processes must not fight over cores.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import numpy as np  # noqa: E402

NAME = "batched-leduc-py"
# How many games it plays at once: `--games N` (1: one at a time, in the plain protocol).
GAMES = int(sys.argv[sys.argv.index("--games") + 1]) if "--games" in sys.argv else 64
RANKS = "TJQKA"
ACTIONS = ["fold", "call", "raise"]
WIDTH = 1024
# How long to wait for more turns before evaluating those at hand.
PATIENCE = 0.002

weights = np.random.default_rng(2024)
W1 = (weights.standard_normal((32, WIDTH)) / np.sqrt(32)).astype(np.float32)
W2 = (weights.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH)).astype(np.float32)
W3 = (weights.standard_normal((WIDTH, 3)) / np.sqrt(WIDTH)).astype(np.float32)


def features(state):
    """The position as 32 numbers: the cards, the round and the betting."""
    x = np.zeros(32, dtype=np.float32)
    x[RANKS.index(state["card"][0])] = 1
    if state["public"]:
        x[5 + RANKS.index(state["public"][0])] = 1
        x[10] = state["public"][0] == state["card"][0]
    x[11 + state["round"]] = 1
    x[14] = state["pot"] / 10
    x[15] = state["owed"] / 4
    x[16 + state["raises"]] = 1
    x[19] = len(state["put_in"]) / 4
    x[20] = state["bet"] / 4
    return x


def evaluate(states):
    """The scores of fold, call and raise of each position, all in one batch."""
    hidden = np.maximum(np.stack([features(state) for state in states]) @ W1, 0)
    hidden = np.maximum(hidden @ W2, 0)
    return hidden @ W3


def answer(turn, scores):
    legal = [ACTIONS.index(move["action"]) for move in turn["legal"]]
    index = max(range(len(legal)), key=lambda i: scores[legal[i]])
    move = {"type": "move", "id": turn["id"], "index": index}
    if "game" in turn:
        move["game"] = turn["game"]
    return json.dumps(move, separators=(",", ":")) + "\n"


def main():
    open_games, pending, buffer = set(), [], b""
    while True:
        # Answer once every open game waits for its move, or no more turns come for a moment.
        if pending and (len(pending) >= len(open_games) or not select.select([0], [], [], PATIENCE)[0]):
            scores = evaluate([turn["state"] for turn in pending])
            sys.stdout.write("".join(answer(turn, row) for turn, row in zip(pending, scores)))
            sys.stdout.flush()
            pending = []
            continue
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            kind = message.get("type")
            if kind == "hello":
                if message.get("protocol") != 1:
                    print(f"{NAME}: unsupported protocol version {message.get('protocol')!r}", file=sys.stderr)
                    sys.exit(1)
                ready = {"type": "ready", "name": NAME, "version": "1.0", "protocol": 1}
                if GAMES > 1:
                    ready["games"] = GAMES
                sys.stdout.write(json.dumps(ready, separators=(",", ":")) + "\n")
                sys.stdout.flush()
            elif kind == "game_start":
                open_games.add(message.get("game"))
            elif kind == "game_end":
                open_games.discard(message.get("game"))
                pending = [turn for turn in pending if turn.get("game") != message.get("game")]
            elif kind == "turn":
                pending.append(message)
            elif kind == "bye":
                return


if __name__ == "__main__":
    main()

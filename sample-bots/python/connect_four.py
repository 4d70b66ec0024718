#!/usr/bin/env python3
"""connect_four.py: a sample Connect Four bot for the bot arena (Python 3, standard library only).

It plays the game of engines/connect-four/engine.py: it wins at once if it
can, else blocks a column where the opponent would win at once, else plays
the column nearest the centre (the left one of two equally near). It is
deterministic: the same position always gets the same move.

Run it in a match:
    target/release/arena match --engine "python3 engines/connect-four/engine.py" \\
        --bot py="python3 sample-bots/python/connect_four.py" --bot py2="python3 sample-bots/python/connect_four.py"

It needs only each turn's `state` and `legal` (and, from hello, the variant's
`connect`, 4 if it is not given); every other message is ignored. Log to
stderr, never to stdout.
"""
import json
import sys

NAME = "connect-four-py"
MARKS = "XO"  # seat 0 plays X, seat 1 plays O


def wins(board, column, mark, connect):
    """Whether dropping `mark` in `column` makes a line of `connect`.

    board: one string per row, top row first, "." empty.
    """
    rows, columns = len(board), len(board[0])
    row = max(r for r in range(rows) if board[r][column] == ".")
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, column + sign * dc
            while 0 <= r < rows and 0 <= c < columns and board[r][c] == mark:
                count, r, c = count + 1, r + sign * dr, c + sign * dc
        if count >= connect:
            return True
    return False


def choose(state, legal, connect):
    """Return the index in `legal` of the move to play.

    state: {"board": [row strings, top first], "you": seat, "to_move": seat, "last": column or None}
    legal: [{"column": C}, ...], the columns that are not full, in increasing order
    """
    board, columns = state["board"], [move["column"] for move in legal]
    me, opponent = MARKS[state["you"]], MARKS[1 - state["you"]]
    for mark in (me, opponent):  # win now, else block the opponent's win
        for i, column in enumerate(columns):
            if wins(board, column, mark, connect):
                return i
    centre = (len(board[0]) - 1) / 2
    return min(range(len(columns)), key=lambda i: (abs(columns[i] - centre), columns[i]))


def send(message):
    """Write one message as one line and flush it at once."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    connect = 4
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("protocol") != 1:
                print(f"{NAME}: unsupported protocol version {message.get('protocol')!r}", file=sys.stderr)
                sys.exit(1)
            connect = (message.get("variant") or {}).get("connect", 4)
            send({"type": "ready", "name": NAME, "version": "1.0", "protocol": 1})
        elif kind == "turn":
            send({"type": "move", "id": message["id"], "index": choose(message["state"], message["legal"], connect)})
        elif kind == "bye":
            break
        # Anything else (game_start, events, game_end, or a type added later) is ignored.


if __name__ == "__main__":
    main()

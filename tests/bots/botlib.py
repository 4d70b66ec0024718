"""Shared loop of the test bots in this directory (Python 3, standard library only).

`run(misbehave)` answers hello with ready and every turn with the first legal
move, except the 4th turn of the match (counted over all games), which it hands
to `misbehave(turn)` instead. If `misbehave` returns, the bot plays on as before.
`on_line(line)`, if given, sees every line received; `on_bye()` runs on bye.
It exits with status 0 on bye or at the end of its input.
"""
import json
import os
import sys
import time

NAME = os.path.splitext(os.path.basename(sys.argv[0]))[0]


def send_line(text):
    """Write one line to stdout and flush it."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(message):
    send_line(json.dumps(message, separators=(",", ":")))


def sleep_forever():
    while True:
        time.sleep(3600)


def run(misbehave=None, at=4, on_line=None, on_bye=None):
    turns = 0
    for line in sys.stdin:
        if on_line is not None:
            on_line(line)
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "ready", "name": NAME})
        elif kind == "turn":
            turns += 1
            if misbehave is not None and turns == at:
                misbehave(message)
            else:
                send({"type": "move", "id": message["id"], "index": 0})
        elif kind == "bye":
            if on_bye is not None:
                on_bye()
            break

"""Shared loop of the test bots in this directory (Python 3, standard library only).

`run(misbehave)` answers hello with ready and every turn with the first legal
move, except the 4th turn of the match (counted over all games), which it hands
to `misbehave(turn)` instead. If `misbehave` returns, the bot plays on as before.
`on_line(line)`, if given, sees every line received; `on_bye()` runs on bye;
`ready`, if given, holds more fields of `ready` (`{"any_seat": True}`).
It exits with status 0 on bye or at the end of its input.

Every process of a test bot, and anything it starts, ends on its own, even if
the arena and the tests are killed outright: every loop checks `alive()`
(`LIFETIME` seconds from the bot's start), and `sleep_forever()` sleeps until
then, or `LIFETIME` seconds from when it is called if that is later (so that
a hang outlasts a move timeout however late in the bot's life a busy machine
brings it), and exits.
A process that sleeps its lifetime out says so with a file `lived-out.*` in
the test's scratch directory (the last argument, when it is a directory, as
the tests give it): nothing ended it, as the arena should have.
"""
import json
import os
import select
import sys
import time

NAME = os.path.splitext(os.path.basename(sys.argv[0]))[0]
# How long any process of a test bot may live, in seconds.
LIFETIME = 25
# When every process of this bot must have ended (children inherit it).
DEADLINE = time.monotonic() + LIFETIME


def send_line(text):
    """Write one line to stdout and flush it."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(message):
    send_line(json.dumps(message, separators=(",", ":")))


def alive():
    """Whether this bot's lifetime has not run out."""
    return time.monotonic() < DEADLINE


def sleep_forever():
    """Sleeps as long as the bot may live, and `LIFETIME` seconds at least, then says so (see above) and exits."""
    end = max(DEADLINE, time.monotonic() + LIFETIME)
    while time.monotonic() < end:
        time.sleep(max(0.0, min(1.0, end - time.monotonic())))
    if os.path.isdir(sys.argv[-1]):
        open(os.path.join(sys.argv[-1], f"lived-out.{NAME}.{os.getpid()}"), "w").close()
    os._exit(0)


def await_bytes(fd, count, patience=5.0):
    """Reads `count` bytes from `fd` (children saying they are in place), waiting at most `patience` seconds."""
    end = time.monotonic() + patience
    while count > 0 and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], max(0.0, end - time.monotonic()))
        if not ready:
            break
        got = os.read(fd, count)
        if not got:
            break
        count -= len(got)
    os.close(fd)


def parent_of(pid):
    """The parent of process `pid`, from /proc (the field after the state, past the command name)."""
    with open(f"/proc/{pid}/stat") as stat:
        text = stat.read()
    return int(text[text.rindex(")") + 1:].split()[1])


def run(misbehave=None, at=4, on_line=None, on_bye=None, ready=None):
    turns = 0
    for line in sys.stdin:
        if on_line is not None:
            on_line(line)
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send({"type": "ready", "name": NAME, **(ready or {})})
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

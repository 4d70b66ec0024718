#!/usr/bin/env python3
# Usage: clocked.py DIR SLEEP_MS LONG_MS
# Plays the first legal move after sleeping SLEEP_MS on each turn (LONG_MS
# instead on the 4th turn of the match), and writes what each turn
# says of its clock to DIR/<pid>.clock, a JSON line per turn: the game's id,
# the seat, `time_ms`, `clock_ms` and `increment_ms`.
# Under a clock it checks what it is told, and exits with status 3 (a message
# on stderr) on a turn with only one of `clock_ms` and `increment_ms`, one
# that allows more than the clock has left, or a clock that did not fall by
# at least its sleep (less the increment) since its last move of the game.
import json
import os
import sys
import time

from botlib import alive, send

log = open(os.path.join(sys.argv[1], f"{os.getpid()}.clock"), "w", encoding="utf-8")
sleep_ms = int(sys.argv[2])
long_ms = int(sys.argv[3])


def fail(why):
    sys.stderr.write(f"clocked.py: {why}\n")
    sys.stderr.flush()
    os._exit(3)


game, seat, turns, last = None, None, 0, None
for line in sys.stdin:
    if not alive():
        break
    if not line.strip():
        continue
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        send({"type": "ready", "name": "clocked"})
    elif kind == "game_start":
        game, seat, last = message["id"], message["seat"], None
    elif kind == "turn":
        turns += 1
        clock, increment = message.get("clock_ms"), message.get("increment_ms")
        if (clock is None) != (increment is None):
            fail(f"a turn with only one of clock_ms and increment_ms: {line.strip()}")
        if clock is not None and message["time_ms"] > clock:
            fail(f"time_ms {message['time_ms']} is more than the {clock} ms left on the clock")
        if clock is not None and last is not None and clock > last[0] - last[1] + increment:
            fail(f"the clock shows {clock} ms after a move that slept {last[1]} ms with {last[0]} ms left")
        log.write(json.dumps({"game": game, "seat": seat, "time_ms": message["time_ms"], "clock_ms": clock,
                              "increment_ms": increment}) + "\n")
        log.flush()
        slept = long_ms if turns == 4 else sleep_ms
        time.sleep(slept / 1000)
        last = (clock, slept)
        send({"type": "move", "id": message["id"], "index": 0})
    elif kind == "bye":
        break

#!/usr/bin/env python3
# Plays the first legal move, but on its 4th turn answers, waits until the
# other seat has been asked its move (`gated.py`, given the same file: it
# holds its answer while the file named by the first argument exists, and
# writes `GATE.waiting` to say so), then writes its answer to its next turn
# ahead of that turn, in a write of its own, and lets the other seat go on.
# The arena must find that line before it sends the next turn (a `protocol`
# fault), however long it has waited for the other seat meanwhile. It writes
# `GATE.ahead` once the line ahead is written while the other seat waits.
import json
import os
import sys
import time

from botlib import alive, run, send_line

GATE = sys.argv[1]


def move(turn_id):
    return json.dumps({"type": "move", "id": turn_id, "index": 0}, separators=(",", ":"))


def ahead(turn):
    if os.path.exists(GATE + ".waiting"):
        os.remove(GATE + ".waiting")  # said for an earlier turn
    open(GATE, "w").close()
    send_line(move(turn["id"]))
    while not os.path.exists(GATE + ".waiting") and alive():
        time.sleep(0.01)
    send_line(move(turn["id"] + 1))
    open(GATE + ".ahead", "w").close()
    os.remove(GATE)


run(ahead)

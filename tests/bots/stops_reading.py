#!/usr/bin/env python3
# Plays 3 turns; then never reads stdin again, but keeps answering the turns it
# guesses are coming (ids count up by one): an answer written before its turn
# is a protocol fault, and a request that cannot be written because its stdin
# pipe is full is a timeout; which comes first depends on timing.
import time

from botlib import alive, run, send


def stop_reading(turn):
    next_id = turn["id"]
    while alive():
        send({"type": "move", "id": next_id, "index": 0})
        next_id += 1
        time.sleep(0.001)


run(stop_reading)

#!/usr/bin/env python3
# A well-behaved bot (the first legal move) that tells on stderr, at each
# game_start, what this process was dealt: "witness: " and JSON with the
# game's tag ("id"), its seat and the seed told to it. One log file is one
# process, so the logs say which games each process played, and whether one
# met a deal twice (its seat's seed again). With --any-seat its `ready` says
# it plays any seat (each game's, as game_start tells it).
import json
import sys

from botlib import run


def on_line(line):
    if '"game_start"' in line:
        start = json.loads(line)
        told = {"id": start["id"], "seat": start["seat"], "seed": start["seed"]}
        sys.stderr.write("witness: " + json.dumps(told) + "\n")
        sys.stderr.flush()


run(on_line=on_line, ready={"any_seat": True} if "--any-seat" in sys.argv else None)

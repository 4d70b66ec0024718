#!/usr/bin/env python3
# At its 4th turn, stops the arena (SIGSTOP: its grandparent, above its
# supervisor), answers once every thread of the arena has stopped, and lets
# the arena go on (SIGCONT) 0.5 s past the turn's deadline (its `time_ms`): the
# answer was written in time, but the arena reads it only after the move
# limit, as on a machine so busy that the arena's thread runs late.
import os
import signal
import time

from botlib import alive, parent_of, run, send


def stopped(pid):
    """Whether every thread of process `pid` is stopped (state T), as /proc shows them."""
    for thread in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{thread}/stat") as stat:
                text = stat.read()
        except FileNotFoundError:
            continue
        if text[text.rindex(")") + 1:].split()[0] not in ("T", "t"):
            return False
    return True


def stop_arena(turn):
    arena = parent_of(os.getppid())
    os.kill(arena, signal.SIGSTOP)
    # A signal takes effect when its process next runs: on a busy machine the
    # arena could otherwise read the answer before it stops.
    while not stopped(arena) and alive():
        time.sleep(0.001)
    send({"type": "move", "id": turn["id"], "index": 0})
    time.sleep(turn["time_ms"] / 1000 + 0.5)
    os.kill(arena, signal.SIGCONT)


run(misbehave=stop_arena)

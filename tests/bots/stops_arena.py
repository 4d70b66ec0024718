#!/usr/bin/env python3
# At its 4th turn, stops the arena (SIGSTOP: its grandparent, above its
# supervisor), answers at once, and lets the arena go on (SIGCONT) 2.5 s
# later (the tests give 1.5 s a move): the answer was written in time, but the arena reads it only after
# the move limit, as on a machine so busy that the arena's thread runs late.
import os
import signal
import time

from botlib import parent_of, run, send


def stop_arena(turn):
    arena = parent_of(os.getppid())
    os.kill(arena, signal.SIGSTOP)
    send({"type": "move", "id": turn["id"], "index": 0})
    time.sleep(2.5)
    os.kill(arena, signal.SIGCONT)


run(misbehave=stop_arena)

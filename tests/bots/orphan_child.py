#!/usr/bin/env python3
# Plays 3 turns; at the 4th starts a child that keeps stdout and stderr open and sleeps, then exits itself.
import os

from botlib import run, sleep_forever


def leave_a_child(turn):
    if os.fork() == 0:
        sleep_forever()
    os._exit(1)


run(leave_a_child)

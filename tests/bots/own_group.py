#!/usr/bin/env python3
# At its 4th turn starts a child in a new process group, moves itself into
# that group, and stops answering.
import os

from botlib import sleep_forever, run


def hide(turn):
    child = os.fork()
    if child == 0:
        os.setpgid(0, 0)
        sleep_forever()
    os.setpgid(child, child)  # as the child does: whichever runs first makes the group
    os.setpgid(0, child)
    sleep_forever()


run(hide)

#!/usr/bin/env python3
# At its 4th turn moves itself into the arena's process group (that of its
# nearest ancestor running `arena match`, `arena league` or the like) and
# stops answering.
import os

from botlib import parent_of, run, sleep_forever

ARENA_COMMANDS = {b"match", b"league", b"sprt", b"check-bot"}


def arena_group():
    pid = os.getppid()
    while pid > 1:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            argv = cmdline.read().split(b"\0")
        if len(argv) > 1 and argv[1] in ARENA_COMMANDS:
            return os.getpgid(pid)
        pid = parent_of(pid)
    return os.getpgid(os.getppid())


def hide(turn):
    os.setpgid(0, arena_group())
    sleep_forever()


run(hide)

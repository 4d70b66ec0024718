#!/usr/bin/env python3
# Plays correctly, 20 ms a move, while a child starts processes that are
# orphaned (their parent exits at once) and then exit: each becomes a zombie
# of whichever process adopts orphans. The child stops after 300 orphans, or
# 20 s after the bot started, whichever comes first, and then writes how many
# it made to the file `made` in its directory (the last argument, where the
# tests give their scratch directory). The bot's first move waits until the
# file `watched` is there too, so that the test can look at the zombies left
# once they were all made, however slowly a busy machine lets it look.
import os
import sys
import time

from botlib import DEADLINE, alive, run

END = min(DEADLINE, time.monotonic() + 20)
ORPHANS = 300
DIRECTORY = sys.argv[-1]


def factory():
    made = 0
    while made < ORPHANS and time.monotonic() < END:
        pid = os.fork()
        if pid == 0:
            if os.fork() == 0:
                time.sleep(0.002)
                os._exit(0)
            os._exit(0)
        os.waitpid(pid, 0)
        made += 1
    # Written whole, then renamed: the test never reads half a count.
    partial = os.path.join(DIRECTORY, f"made.{os.getpid()}")
    with open(partial, "w") as file:
        file.write(str(made))
    os.rename(partial, os.path.join(DIRECTORY, "made"))
    os._exit(0)


def on_line(line):
    if '"turn"' in line:
        while not os.path.exists(os.path.join(DIRECTORY, "watched")) and alive():
            time.sleep(0.01)
        time.sleep(0.02)


if os.fork() == 0:
    factory()
run(on_line=on_line)

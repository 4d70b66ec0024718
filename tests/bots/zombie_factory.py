#!/usr/bin/env python3
# Plays correctly, 20 ms a move, while a child keeps starting processes that
# are orphaned (their parent exits at once) and then exit: each becomes a
# zombie of whichever process adopts orphans. The child stops after 20 s or
# 20000 orphans, whichever comes first. Its first move waits until the file
# `watched` is in its directory (the last argument, where the tests give their
# scratch directory), so that the test can watch as long as it needs.
import os
import sys
import time

from botlib import DEADLINE, alive, run

END = min(DEADLINE, time.monotonic() + 20)
WATCHED = os.path.join(sys.argv[-1], "watched")


def factory():
    for _ in range(20000):
        if time.monotonic() >= END:
            break
        pid = os.fork()
        if pid == 0:
            if os.fork() == 0:
                time.sleep(0.002)
                os._exit(0)
            os._exit(0)
        os.waitpid(pid, 0)
    os._exit(0)


def on_line(line):
    if '"turn"' in line:
        while not os.path.exists(WATCHED) and alive():
            time.sleep(0.01)
        time.sleep(0.02)


if os.fork() == 0:
    factory()
run(on_line=on_line)

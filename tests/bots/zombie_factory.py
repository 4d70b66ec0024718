#!/usr/bin/env python3
# Plays correctly, 20 ms a move, while a child keeps starting processes that
# are orphaned (their parent exits at once) and then exit: each becomes a
# zombie of whichever process adopts orphans. The child stops after 20 s or
# 20000 orphans, whichever comes first.
import os
import time

from botlib import DEADLINE, run

END = min(DEADLINE, time.monotonic() + 20)


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


if os.fork() == 0:
    factory()
run(on_line=lambda line: time.sleep(0.02) if '"turn"' in line else None)

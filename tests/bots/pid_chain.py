#!/usr/bin/env python3
# Plays correctly after starting three children that leave their session
# (setsid; it plays once they have) and become chains: every 10 ms the live
# process of a chain starts its successor and, 10 ms later, exits. So each
# chain keeps changing its pid, and half the time is two processes, the one
# about to exit and the next one, its child.
#
# Bounded, so that no test can leak it: only the first process of the bot
# started for a directory (the tests give their scratch directory as the last
# argument) starts chains, and a chain ends when that directory is removed,
# after 20 s, or after 1000 steps, whichever comes first.
import os
import sys
import time

from botlib import DEADLINE, await_bytes, run

HOME = sys.argv[-1]
CHAINS = 3
STEP = 0.01
STEPS = 1000
END = min(DEADLINE, time.monotonic() + 20)


def first_here():
    try:
        os.close(os.open(os.path.join(HOME, "pid_chain.started"), os.O_CREAT | os.O_EXCL))
        return True
    except FileExistsError:
        return False
    except OSError:
        return True


def chain(ready):
    os.setsid()
    os.write(ready, b"c")
    os.close(ready)
    for _ in range(STEPS):
        if time.monotonic() >= END or not os.path.exists(HOME):
            break
        time.sleep(STEP)
        if os.fork() != 0:
            time.sleep(STEP)
            break
    os._exit(0)


if first_here():
    read, write = os.pipe()
    for _ in range(CHAINS):
        if os.fork() == 0:
            os.close(read)
            chain(write)
    os.close(write)
    # Play only once every chain has left the session.
    await_bytes(read, CHAINS)
run()

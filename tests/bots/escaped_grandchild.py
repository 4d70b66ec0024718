#!/usr/bin/env python3
# Plays correctly after starting two children, each with a grandchild: one
# child stays in the bot's process group, the other leaves its session
# (setsid) first. All four sleep forever (as long as a test bot may live).
# The bot plays only once all four are in place.
import os

from botlib import await_bytes, run, sleep_forever


def family(escape, ready):
    if os.fork() == 0:
        if escape:
            os.setsid()
        if os.fork() == 0:
            os.write(ready, b"g")
            sleep_forever()
        os.write(ready, b"c")
        sleep_forever()


read, write = os.pipe()
family(False, write)
family(True, write)
os.close(write)
await_bytes(read, 4)
run()

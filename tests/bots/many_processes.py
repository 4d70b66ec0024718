#!/usr/bin/env python3
# Starts 50 sleeping child processes, then plays correctly.
import os

from botlib import run, sleep_forever

for _ in range(50):
    if os.fork() == 0:
        sleep_forever()
run()

#!/usr/bin/env python3
# Plays correctly after starting a child that leaves the process group (setsid) and sleeps forever.
import os

from botlib import run, sleep_forever

if os.fork() == 0:
    os.setsid()
    sleep_forever()
run()

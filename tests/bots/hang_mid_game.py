#!/usr/bin/env python3
# Plays 3 turns, then sleeps forever when the 4th turn arrives, never answering.
from botlib import run, sleep_forever

run(lambda turn: sleep_forever())

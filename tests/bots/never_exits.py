#!/usr/bin/env python3
# Plays correctly, but neither exits on bye nor at the end of its input: it sleeps instead.
from botlib import run, sleep_forever

run(on_bye=sleep_forever)
sleep_forever()

#!/usr/bin/env python3
# Plays correctly, ignores SIGTERM, and does not exit on bye (it sleeps instead).
import signal

from botlib import run, sleep_forever

signal.signal(signal.SIGTERM, signal.SIG_IGN)
run(on_bye=sleep_forever)

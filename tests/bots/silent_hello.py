#!/usr/bin/env python3
# Reads hello and never answers: sleeps forever (as long as a test bot may live).
import sys

from botlib import sleep_forever

sys.stdin.readline()
sleep_forever()

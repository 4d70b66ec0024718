#!/usr/bin/env python3
# Reads hello and never answers: sleeps forever (as long as a test bot may live).
# Each start appends a byte to the file $COUNTER, if set (a test counts them).
import os
import sys

from botlib import sleep_forever

if "COUNTER" in os.environ:
    with open(os.environ["COUNTER"], "ab") as counter:
        counter.write(b".")
sys.stdin.readline()
sleep_forever()

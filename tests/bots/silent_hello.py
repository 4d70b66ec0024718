#!/usr/bin/env python3
# Reads hello and never answers: sleeps forever.
import sys
import time

sys.stdin.readline()
while True:
    time.sleep(3600)

#!/usr/bin/env python3
# Plays 3 turns, then exits with status 1 when the 4th turn arrives.
import sys

from botlib import run

run(lambda turn: sys.exit(1))

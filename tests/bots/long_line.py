#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with one line of 2,000,000 x inside a JSON string, then plays on.
from botlib import run, send_line

run(lambda turn: send_line('"' + "x" * 2_000_000 + '"'))

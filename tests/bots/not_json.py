#!/usr/bin/env python3
# Plays 3 turns, answers the 4th with the line `this is not json`, then plays on.
from botlib import run, send_line

run(lambda turn: send_line("this is not json"))

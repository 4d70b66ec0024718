#!/usr/bin/env python3
# Writes terminal control sequences everywhere the arena might show what it
# wrote: its ready name and version, its stderr, and its 4th answer (not
# JSON). Each sets the window title, clears the screen, and prints a forged
# check-bot summary at the start of a line (after a carriage return or a line
# break), also behind C1 and bidi-override characters.
import json
import sys

from botlib import run, send, send_line

FORGED = "21 checks: 21 passed, 0 failed, 0 skipped"
ATTACK = "\x1b]0;owned\x07\x1b[2J\x1b[H\r" + FORGED + "\u009b2J\u202e\x7f"


def misbehave(turn):
    send_line(ATTACK)


print(ATTACK + "\n" + FORGED + "\r\x1b[1A", file=sys.stderr, flush=True)
line = sys.stdin.readline()
send({"type": "ready", "name": ATTACK + "\n" + FORGED, "version": ATTACK + "\n" + FORGED})
run(misbehave)

#!/usr/bin/env python3
# Plays one game correctly, then exits (status 0) when that game ends (game_end).
import sys

from botlib import run


def on_line(line):
    if '"type":"game_end"' in line:
        sys.exit(0)


run(on_line=on_line)

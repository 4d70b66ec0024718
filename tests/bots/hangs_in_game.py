#!/usr/bin/env python3
# Plays the first legal move, but hangs (never answers again) in the game in
# which the bot's processes have together seen $HANG_AT game_start messages,
# counted in the file $COUNTER (one byte appended per game).
import os

from botlib import run, sleep_forever


def on_line(line):
    if '"type":"game_start"' in line:
        with open(os.environ["COUNTER"], "ab") as counter:
            counter.write(b".")
        if os.path.getsize(os.environ["COUNTER"]) == int(os.environ["HANG_AT"]):
            sleep_forever()


run(on_line=on_line)

#!/usr/bin/env python3
"""slow_start.py GATE: hidden_card.py, but at its first game's start it
writes GATE.waiting and then does not answer for a long time: a test stops
the arena while it waits, and the arena, which kills its engine as it
stops, must blame nobody."""
import pathlib
import sys
import time

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402


class SlowStart(HiddenCard):
    def __init__(self, variant, seed, setup):
        pathlib.Path(sys.argv[1] + ".waiting").touch()
        time.sleep(600)
        super().__init__(variant, seed, setup)


if __name__ == "__main__":
    engine.serve(SlowStart)

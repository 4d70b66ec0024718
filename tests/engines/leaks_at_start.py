#!/usr/bin/env python3
"""leaks_at_start.py: liars_dice.py, but seat 1 is told seat 0's roll, in
the answer to start: check-engine's leak check must catch it in the start
step as in any other."""
import sys

sys.dont_write_bytecode = True
from liars_dice import LiarsDice, engine  # noqa: E402


class LeaksAtStart(LiarsDice):
    def roll(self, seat):
        event = super().roll(seat)
        if seat == 0:
            event["views"][1] = {"type": "roll", "dice": self.dice[0]}  # the leak
        return event


if __name__ == "__main__":
    engine.serve(LeaksAtStart)

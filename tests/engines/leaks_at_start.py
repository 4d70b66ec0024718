#!/usr/bin/env python3
"""leaks_at_start.py: liars_dice.py, but seat 1's view of the roll, in the
answer to start, shows seat 0's dice too: check-engine's leak check must
catch it in the start step as in any other."""
import sys

sys.dont_write_bytecode = True
from liars_dice import LiarsDice, engine  # noqa: E402


class LeaksAtStart(LiarsDice):
    def roll_views(self):
        views = super().roll_views()
        views[1] = {**views[1], "other": self.dice[0]}  # the leak
        return views


if __name__ == "__main__":
    engine.serve(LeaksAtStart)

#!/usr/bin/env python3
"""leaks.py: hidden_card.py, but a seat's state shows the other seat's card,
which `private` declares hidden: check-engine's leak check must catch it."""
import sys

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402


class Leaks(HiddenCard):
    def state(self, seat):
        return {**super().state(seat), "other": self.cards[1 - seat]}  # the leak


if __name__ == "__main__":
    engine.serve(Leaks)

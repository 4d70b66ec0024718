#!/usr/bin/env python3
"""collides.py: hidden_card.py, but a guess is an event called "turn" (as
Hold'em's fourth card is), the type of the arena's own message that asks a
bot to move: check-engine must fail it, and a match blame the engine, not
the bots."""
import sys

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402


class Collides(HiddenCard):
    def play(self, index):
        events = super().play(index)
        for event in events:
            if event["event"]["type"] == "guess":
                event["event"]["type"] = "turn"
                event["views"] = [{**view, "type": "turn"} for view in event["views"]]
        return events


if __name__ == "__main__":
    engine.serve(Collides)

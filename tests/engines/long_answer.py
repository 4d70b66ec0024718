#!/usr/bin/env python3
"""long_answer.py: hidden_card.py, but after the first move the state it
sends is 2 MiB long, more than an engine's answer may take: the run must
stop, blaming the engine with a clear message, and no bot."""
import sys

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402


class LongAnswer(HiddenCard):
    def state(self, seat):
        state = super().state(seat)
        if state["guesses"][0] is not None:
            state["padding"] = "x" * (2 << 20)
        return state


if __name__ == "__main__":
    engine.serve(LongAnswer)

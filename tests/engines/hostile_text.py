#!/usr/bin/env python3
"""hostile_text.py: hidden_card.py, drawing its game for a person (`text`
and `texts`) with terminal controls in the words: escape sequences that set
the window title and clear the screen, a carriage return before a forged
line, a bidi override. `arena play` must show them escaped."""
import json
import sys

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402

HOSTILE = "\x1b]0;owned\x07\x1b[2J\u202eforged\r21 checks: 21 passed"


class HostileText(HiddenCard):
    def __init__(self, variant, seed, setup):
        super().__init__(variant, seed, setup)
        for event in self.start_events:
            event["texts"] = [HOSTILE] * self.SEATS

    def play(self, index):
        events = super().play(index)
        for event in events:
            event["texts"] = [HOSTILE] * self.SEATS
        return events


class WithText:
    """stdout, with a `text` added to every step that asks a seat to choose."""

    def __init__(self, out):
        self.out = out

    def write(self, line):
        answer = json.loads(line)
        if answer.get("type") == "step" and answer.get("to_act") is not None:
            answer["text"] = f"your card, {HOSTILE}\n  1. high\n  2. low\x1b[1A\n"
        self.out.write(json.dumps(answer, separators=(",", ":")) + "\n")

    def flush(self):
        self.out.flush()


if __name__ == "__main__":
    sys.stdout = WithText(sys.stdout)
    engine.serve(HostileText)

#!/usr/bin/env python3
"""refuses_choice.py: the starter, but it lists one column past the board
as a choice, last, and refuses it with an error when it is played."""
import sys

sys.dont_write_bytecode = True
from starter import engine  # noqa: E402


class RefusesChoice(engine.ConnectFour):
    def choices(self):
        choices = super().choices()
        return choices + [{"column": self.columns}] if choices else []  # the fault

    def play(self, index):
        if index == len(self.choices()) - 1:
            raise engine.GameError(f"column {self.columns} does not exist (0 to {self.columns - 1})")
        return super().play(index)


if __name__ == "__main__":
    engine.serve(RefusesChoice)

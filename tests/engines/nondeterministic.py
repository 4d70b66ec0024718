#!/usr/bin/env python3
"""nondeterministic.py: the starter, but the choices come in an order drawn
from os.urandom, so that the same requests give different answers in two
processes (the order holds within a position, so that a play is still the
choice it names)."""
import os
import sys

sys.dont_write_bytecode = True
from starter import engine  # noqa: E402


class Nondeterministic(engine.ConnectFour):
    def choices(self):
        orders = self.__dict__.setdefault("orders", {})
        if len(self.moves) not in orders:
            orders[len(self.moves)] = sorted(super().choices(), key=lambda _: os.urandom(8))  # the fault
        return orders[len(self.moves)]


if __name__ == "__main__":
    engine.serve(Nondeterministic)

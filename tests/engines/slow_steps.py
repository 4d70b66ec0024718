#!/usr/bin/env python3
"""slow_steps.py [--silent]: hidden_card.py, but each start takes 4.5
seconds (as a game that solves its deal does), and its answer to hello asks
for 10 seconds an answer (`step_ms`), unless --silent: check-engine with
--timeout 4000 must pass it when it asks, and fail it when it does not.
(The timeout leaves a busy machine's Python time to start and answer
hello, which it bounds too.)"""
import sys
import time

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402

ASKS = "--silent" not in sys.argv[1:]


class SlowSteps(HiddenCard):
    @classmethod
    def engine(cls):
        return {**super().engine(), **({"step_ms": 10000} if ASKS else {})}

    def __init__(self, variant, seed, setup):
        time.sleep(4.5)
        super().__init__(variant, seed, setup)


if __name__ == "__main__":
    engine.serve(SlowSteps)

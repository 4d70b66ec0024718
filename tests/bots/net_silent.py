# A choose function for sample-bots/python/connect.py (--bot-file): never
# answers a turn, its connection kept open.
import time


def choose(state, legal):
    time.sleep(3600)

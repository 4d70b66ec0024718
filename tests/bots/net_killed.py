# A choose function for sample-bots/python/connect.py (--bot-file): plays two
# moves, then kills its whole client at the third, mid-game.
import os
import signal

turns = 0


def choose(state, legal):
    global turns
    turns += 1
    if turns == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0

#!/usr/bin/env python3
"""hangs.py: the starter, but at the 5th play request (counted over the
process) it stops answering; it ends itself 50 s later, so that no test
leaves it running."""
import sys
import time

sys.dont_write_bytecode = True
from starter import engine, request_type  # noqa: E402


def requests():
    plays = 0
    for line in sys.stdin:
        plays += request_type(line) == "play"
        if plays == 5:
            time.sleep(50)  # the fault: silence
            sys.exit(1)
        yield line


if __name__ == "__main__":
    engine.serve(engine.ConnectFour, requests())

#!/usr/bin/env python3
"""no_bye.py: the starter, but it does not exit on bye: it stays 50 s
more, whatever comes on stdin, then ends itself, so that no test leaves it
running."""
import sys
import time

sys.dont_write_bytecode = True
from starter import engine, request_type  # noqa: E402


def requests():
    for line in sys.stdin:
        if request_type(line) == "bye":
            time.sleep(50)  # the fault: it lingers
            return
        yield line


if __name__ == "__main__":
    engine.serve(engine.ConnectFour, requests())

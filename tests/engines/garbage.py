#!/usr/bin/env python3
"""garbage.py: the starter, but it answers hello with a line that is not JSON."""
import sys

sys.dont_write_bytecode = True
from starter import engine, request_type  # noqa: E402


def requests():
    for line in sys.stdin:
        if request_type(line) == "hello":
            print("connect-four 1.0 at your service", flush=True)  # the fault
        else:
            yield line


if __name__ == "__main__":
    engine.serve(engine.ConnectFour, requests())

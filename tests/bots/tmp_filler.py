#!/usr/bin/env python3
# Fills its /tmp (and /dev/shm) at hello: writes 1 MiB at a time, in files of
# 8 MiB, until a write fails or it has written the number of MiB given as its
# first argument; reports on stderr (one line, "fill: " and JSON) how many
# bytes each took and why it stopped, then plays on.
import json
import os
import sys

from botlib import run

CHUNK = 1 << 20
PER_FILE = 8


def fill(directory, most):
    written, stop = 0, "the bot's own cap"
    chunk = b"x" * CHUNK
    try:
        for number in range(0, most, PER_FILE):
            with open(os.path.join(directory, f"fill-{os.getpid()}-{number}"), "wb") as f:
                for _ in range(min(PER_FILE, most - number)):
                    written += f.write(chunk)
                    f.flush()
    except OSError as e:
        stop = e.strerror
    return {"written": written, "stop": stop}


most = int(sys.argv[1])
report = {"tmp": fill("/tmp", most), "shm": fill("/dev/shm", most)}
print("fill: " + json.dumps(report), file=sys.stderr, flush=True)
run()

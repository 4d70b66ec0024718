#!/usr/bin/env python3
# Looks for descriptors it did not ask for: at hello it lists every open
# descriptor above 2 (and what it points to), reads descriptor 7 and writes to
# descriptor 8, then reports on stderr (one line, "fds: " and JSON) and plays on.
import json
import os
import sys

from botlib import run


def open_descriptors():
    found = {}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd <= 2:
            continue
        try:
            found[fd] = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            pass  # the descriptor listdir itself used, now closed
    return found


def attempt(action):
    try:
        return action()
    except OSError as e:
        return {"error": e.strerror}


report = {
    "open": open_descriptors(),
    "read_7": attempt(lambda: os.read(7, 100).decode("utf-8", "replace")),
    "write_8": attempt(lambda: os.write(8, b"a bot wrote this\n")),
}
print("fds: " + json.dumps(report), file=sys.stderr, flush=True)
run()

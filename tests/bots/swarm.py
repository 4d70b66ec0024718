#!/usr/bin/env python3
# At its 4th turn, starts CHILDREN processes (the first argument) that each
# fill MIB mebibytes of memory (the second) and sleep, as one bot keeping
# hundreds of processes or gigabytes across them would; then plays on. It
# reports on stderr ("swarm: " and JSON) how many it started, why it
# stopped, and how many children said (through a pipe, within 20 seconds)
# that they had filled their memory.
import json
import os
import select
import sys
import time

from botlib import run, send, sleep_forever

CHILDREN = int(sys.argv[1])
MIB = int(sys.argv[2])


def swarm(turn):
    started, stop = 0, None
    read, write = os.pipe()
    for _ in range(CHILDREN):
        try:
            pid = os.fork()
        except OSError as e:
            stop = e.strerror
            break
        if pid == 0:
            held = b"x" * (MIB << 20)  # written, so resident
            os.write(write, b"f")
            sleep_forever()
        started += 1
    os.close(write)
    filled, end = 0, time.monotonic() + 20
    while filled < started and time.monotonic() < end:
        if not select.select([read], [], [], max(0.0, end - time.monotonic()))[0]:
            break
        got = os.read(read, 64)
        if not got:
            break  # every child has exited (or was killed)
        filled += len(got)
    report = {"started": started, "stop": stop, "filled": filled, "held_mib": filled * MIB}
    print("swarm: " + json.dumps(report), file=sys.stderr, flush=True)
    send({"type": "move", "id": turn["id"], "index": 0})


run(misbehave=swarm)

#!/usr/bin/env python3
# Plays the first legal move; at hello, reports on stderr (one JSON line) what its process may do: environment, limits, writing, network.
import json
import os
import resource
import socket
import sys

from botlib import run


def can_write(directory):
    path = os.path.join(directory, f"probe-{os.getpid()}.tmp")
    try:
        with open(path, "w") as f:
            f.write("x")
        os.remove(path)
        return True
    except OSError:
        return False


def can_connect():
    try:
        socket.create_connection(("1.1.1.1", 53), timeout=1).close()
        return True
    except OSError as e:
        return str(e)


report = {
    "env": sorted(os.environ),
    "cwd": os.getcwd(),
    "nofile": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    "as": resource.getrlimit(resource.RLIMIT_AS)[0],
    "fsize": resource.getrlimit(resource.RLIMIT_FSIZE)[0],
    "write_cwd": can_write(os.getcwd()),
    "write_tmp": can_write("/tmp"),
    "network": can_connect(),
    "pid": os.getpid(),
    "cpus": sorted(os.sched_getaffinity(0)),
}
print("probe: " + json.dumps(report), file=sys.stderr, flush=True)
run()

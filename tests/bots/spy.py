#!/usr/bin/env python3
# Tries to read what a sandboxed bot must not see: every path given as an
# argument or in the environment variable SPY_PATHS (separated by colons;
# files are read, directories listed), at hello and again at every
# game_start (records appear as games finish). Each time it reports on stderr
# (one line, "spy: " and JSON) what it could read, then plays on.
import json
import os
import sys

from botlib import run


def look(path):
    try:
        if os.path.isdir(path):
            return sorted(os.listdir(path))
        with open(path, "rb") as f:
            return f.read(200).decode("utf-8", "replace")
    except OSError as e:
        return {"error": e.strerror}


def report(line=None):
    if line is None or '"game_start"' in line:
        paths = sys.argv[1:] + [p for p in os.environ.get("SPY_PATHS", "").split(":") if p]
        seen = {path: look(path) for path in paths}
        print("spy: " + json.dumps(seen), file=sys.stderr, flush=True)


report()
run(on_line=report)

#!/usr/bin/env python3
# Tries to leave a mark in the copy of its view for a later process of its
# bot to find (under --sandbox bwrap a dead process's copy may be handed to
# a later one), and looks for the marks an earlier process left. At hello it
# looks: a file "mark" beside this script; an extended attribute
# "user.mark" on it; a change of its mode (other's execute bit) or of its
# access or modification time (set far in the past by a mark); and then it
# tries each of those marks, and reads this script again and again (which
# would move its access time on a writable mount). It reports on stderr
# ("marks: " and JSON): "seen", the marks it found; "left", the marks it
# managed to leave; "file", this script's device and inode, which tell
# whether two processes had the same copy.
import json
import os
import stat
import sys

from botlib import run

SCRIPT = os.path.abspath(__file__)
MARK = os.path.join(os.path.dirname(SCRIPT), "mark")
PAST = 1_000_000_000  # 2001: a time no copy of this script has


def seen():
    found = []
    if os.path.exists(MARK):
        found.append("file")
    try:
        if os.getxattr(SCRIPT, "user.mark"):
            found.append("xattr")
    except OSError:
        pass
    status = os.stat(SCRIPT)
    if status.st_mode & stat.S_IXOTH:
        found.append("mode")
    if int(status.st_mtime) == PAST or int(status.st_atime) == PAST:
        found.append("time")
    return found


def leave():
    left = []
    attempts = {
        "file": lambda: open(MARK, "w").close(),
        "xattr": lambda: os.setxattr(SCRIPT, "user.mark", b"1"),
        "mode": lambda: os.chmod(SCRIPT, os.stat(SCRIPT).st_mode | stat.S_IXOTH),
        "time": lambda: os.utime(SCRIPT, (PAST, PAST)),
    }
    for name, attempt in attempts.items():
        try:
            attempt()
            left.append(name)
        except OSError:
            pass
    for _ in range(100):
        with open(SCRIPT, "rb") as f:
            f.read()
    return left


def main():
    status = os.stat(SCRIPT)
    report = {"seen": seen(), "file": [status.st_dev, status.st_ino]}
    report["left"] = leave()
    print("marks: " + json.dumps(report), file=sys.stderr, flush=True)
    run()


main()

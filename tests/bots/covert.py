#!/usr/bin/env python3
# Tries to signal other processes through files they can all read, as the
# review's af_covert and leduc_covert bots did. At each game_start it takes
# an exclusive lock (flock, without waiting) on FILE (the first argument;
# by default this script, which every process of the bot reads) and holds
# it to the end of the game: another process that tries while it is held
# finds it busy, a bit passed from one process to another. It also tries to
# watch FILE for other processes opening it (inotify), and to see what of it
# is in the page cache (mincore, through mmap). At each game_end it reports
# on stderr ("covert: " and JSON) what worked: "flock" is "held", "busy" (a
# hit: another process's lock was seen) or the error (under the sandbox a
# lock succeeds without locking: "held" by every process, which tells none
# of them anything); "inotify" and
# "mincore" are "ok" or the error; "file" is FILE's device and inode, which
# tell whether two processes read the same file.
import ctypes
import errno
import fcntl
import json
import mmap
import os
import sys

from botlib import run

FILE = sys.argv[1] if len(sys.argv) > 1 else os.path.abspath(__file__)
libc = ctypes.CDLL(None, use_errno=True)
state = {"fd": None, "report": {}}


def try_inotify():
    fd = libc.inotify_init1(0)
    if fd < 0:
        return os.strerror(ctypes.get_errno())
    os.close(fd)
    return "ok"


def try_mincore():
    with open(FILE, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
    view = ctypes.c_char.from_buffer(mapped)
    vector = ctypes.create_string_buffer(1)
    result = libc.mincore(ctypes.c_void_p(ctypes.addressof(view)), ctypes.c_size_t(1), vector)
    failure = ctypes.get_errno()
    del view
    mapped.close()
    return "ok" if result == 0 else os.strerror(failure)


def on_line(line):
    if '"game_start"' in line:
        report = {"game": json.loads(line)["id"], "inotify": try_inotify(), "mincore": try_mincore(),
                  "file": [os.stat(FILE).st_dev, os.stat(FILE).st_ino]}
        fd = os.open(FILE, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            report["flock"] = "held"
            state["fd"] = fd
        except OSError as e:
            report["flock"] = "busy" if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN) else e.strerror
            os.close(fd)
        state["report"] = report
    elif '"game_end"' in line:
        if state["fd"] is not None:
            os.close(state["fd"])
            state["fd"] = None
        print("covert: " + json.dumps(state["report"]), file=sys.stderr, flush=True)


run(on_line=on_line)

#!/usr/bin/env python3
# Tries to break out of its sandbox like a bot run by a root arena could: at
# hello it reads its capability sets, remounts / (and its own directory)
# read-write, writes a global sysctl (its own value back, harmless) and a file
# at the path given as its first argument, then reports on stderr (one line,
# "escape: " and JSON) and plays the first legal move.
import ctypes
import errno
import json
import os
import sys

from botlib import run

MS_REMOUNT = 32
MS_BIND = 4096
libc = ctypes.CDLL(None, use_errno=True)


def capabilities():
    found = {}
    with open("/proc/self/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
                found[key] = int(value.strip(), 16)
    return found


def remount(path, flags):
    if libc.mount(None, path.encode(), None, ctypes.c_ulong(flags), None) == 0:
        return True
    return errno.errorcode.get(ctypes.get_errno(), "?")


def write(path, text):
    try:
        with open(path, "a") as f:
            f.write(text)
        return True
    except OSError as e:
        return e.strerror


def rewrite_sysctl(path):
    try:
        with open(path) as f:
            value = f.read()
        with open(path, "w") as f:
            f.write(value)
        return True
    except OSError as e:
        return e.strerror


report = {
    "caps": capabilities(),
    "uid": os.getuid(),
    "remount_root": remount("/", MS_REMOUNT | MS_BIND),
    "remount_cwd": remount(os.getcwd(), MS_REMOUNT | MS_BIND),
    "remount_root_plain": remount("/", MS_REMOUNT),
    "sysctl": rewrite_sysctl("/proc/sys/kernel/printk_ratelimit"),
    "write_target": write(sys.argv[1], "escaped\n"),
    "write_cwd": write(os.path.join(os.getcwd(), "escaped.txt"), "escaped\n"),
    "write_root": write("/escaped.txt", "escaped\n"),
}
print("escape: " + json.dumps(report), file=sys.stderr, flush=True)
run()

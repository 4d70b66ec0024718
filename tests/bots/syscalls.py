#!/usr/bin/env python3
# Plays the first legal move; as it starts, makes each system call the
# sandbox's seccomp filters answer (through ctypes), and reports on stderr
# ("syscalls: " and JSON) what each returned: "0" or another number, or the
# name of the error. Calls that the filters make do nothing are given
# arguments that would fail without them (a bad descriptor, an unaligned
# address), so "0" tells the filter from the kernel.
import ctypes
import errno
import json
import os
import platform
import sys

from botlib import run

NUMBERS = {
    "x86_64": dict(flock=73, fcntl=72, fadvise64=221, madvise=28, preadv2=327, pwritev2=328,
                   inotify_init1=294, fanotify_init=300, mincore=27, cachestat=451, process_madvise=440,
                   io_uring_setup=425, io_uring_enter=426, io_uring_register=427, io_setup=206,
                   io_submit=209, getpid=39),
    "aarch64": dict(flock=32, fcntl=25, fadvise64=223, madvise=233, preadv2=286, pwritev2=287,
                    inotify_init1=26, fanotify_init=262, mincore=232, cachestat=451, process_madvise=440,
                    io_uring_setup=425, io_uring_enter=426, io_uring_register=427, io_setup=0,
                    io_submit=2, getpid=172),
}[platform.machine()]
RWF_NOWAIT = 8
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def call(name, *args, x32=False):
    number = NUMBERS[name] | (0x40000000 if x32 else 0)
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    if result < 0:
        code = ctypes.get_errno()
        return "EOPNOTSUPP" if code == errno.EOPNOTSUPP else errno.errorcode.get(code, str(code))
    return str(result)


def main():
    script = os.open(os.path.abspath(__file__), os.O_RDONLY)
    scratch = os.open("/tmp", os.O_TMPFILE | os.O_RDWR)
    buffer = ctypes.create_string_buffer(64)
    iovec = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 64)
    big = ctypes.create_string_buffer(3 * 4096)
    page = (ctypes.addressof(big) + 4095) // 4096 * 4096
    struct = ctypes.create_string_buffer(256)
    report = {
        "flock": call("flock", -1, 2),
        "fcntl F_SETLK": call("fcntl", -1, 6, ctypes.addressof(struct)),
        "fcntl F_OFD_SETLKW": call("fcntl", -1, 38, ctypes.addressof(struct)),
        "fcntl F_GETLK": call("fcntl", script, 5, ctypes.addressof(struct)),
        "fcntl F_SETLEASE": call("fcntl", script, 1024, 0),
        "fcntl F_NOTIFY": call("fcntl", script, 1026, 0),
        "fcntl F_GETFD": call("fcntl", script, 1),
        "fadvise DONTNEED": call("fadvise64", -1, 0, 0, 4),
        "fadvise NOREUSE": call("fadvise64", -1, 0, 0, 5),
        "fadvise WILLNEED": call("fadvise64", -1, 0, 0, 3),
        "madvise COLD": call("madvise", page + 1, 4096, 20),
        "madvise PAGEOUT": call("madvise", page + 1, 4096, 21),
        "madvise COLLAPSE": call("madvise", page + 1, 4096, 25),
        "madvise HUGEPAGE": call("madvise", page + 1, 4096, 14),
        "madvise DONTNEED": call("madvise", page + 1, 4096, 4),
        "preadv2 NOWAIT": call("preadv2", script, ctypes.addressof(iovec), 1, 0, 0, RWF_NOWAIT),
        "preadv2": call("preadv2", script, ctypes.addressof(iovec), 1, 0, 0, 0),
        "pwritev2 NOWAIT": call("pwritev2", scratch, ctypes.addressof(iovec), 1, 0, 0, RWF_NOWAIT),
        "inotify_init1": call("inotify_init1", 0),
        "fanotify_init": call("fanotify_init", 0, 0),
        "mincore": call("mincore", page, 4096, ctypes.addressof(struct)),
        "cachestat": call("cachestat", script, ctypes.addressof(struct), ctypes.addressof(struct), 0),
        "process_madvise": call("process_madvise", -1, 0, 0, 21, 0),
        "io_uring_setup": call("io_uring_setup", 1, ctypes.addressof(struct)),
        "io_uring_enter": call("io_uring_enter", -1, 0, 0, 0, 0, 0),
        "io_uring_register": call("io_uring_register", -1, 0, 0, 0),
        "io_setup": call("io_setup", 1, ctypes.addressof(struct)),
        "io_submit": call("io_submit", 0, 0, 0),
    }
    if platform.machine() == "x86_64":
        report["x32 getpid"] = call("getpid", x32=True)
    print("syscalls: " + json.dumps(report), file=sys.stderr, flush=True)


main()
run()

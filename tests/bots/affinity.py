#!/usr/bin/env python3
# A well-behaved bot (the first legal move) that notes, at hello, the CPUs it
# may run on: a file `affinity.PID` in the scratch directory (its last
# argument) holding them in increasing order, comma-separated.
import os
import sys

from botlib import run


def on_line(line):
    if '"type":"hello"' in line:
        cpus = ",".join(str(cpu) for cpu in sorted(os.sched_getaffinity(0)))
        with open(os.path.join(sys.argv[-1], f"affinity.{os.getpid()}"), "w") as file:
            file.write(cpus)


run(on_line=on_line)

#!/usr/bin/env python3
# Says in `ready` that it plays any seat in its first process only (the
# first to create `said-any-seat` in the scratch directory, its last
# argument); its later processes do not say it.
import os
import sys

from botlib import run

try:
    os.close(os.open(os.path.join(sys.argv[-1], "said-any-seat"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    first = True
except FileExistsError:
    first = False

run(ready={"any_seat": True} if first else None)

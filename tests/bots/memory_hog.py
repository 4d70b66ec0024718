#!/usr/bin/env python3
# Plays 3 turns, then allocates memory without limit; when the address-space
# limit stops it, it says so and exits at once (os._exit: freeing what it
# holds would take long on a busy machine, and the point is the limit).
import os
import sys

from botlib import alive, run


def hog(turn):
    blocks = []
    try:
        while alive():
            blocks.append(bytearray(16 << 20))
    except MemoryError:
        print("memory_hog: MemoryError after %d MiB" % (16 * len(blocks)), file=sys.stderr, flush=True)
        os._exit(1)
    os._exit(0)


run(hog)

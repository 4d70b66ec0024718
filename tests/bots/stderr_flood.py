#!/usr/bin/env python3
# Plays correctly while a thread writes to stderr as fast as it can, without end.
import sys
import threading

from botlib import alive, run


def flood():
    chunk = ("noise " * 10000 + "\n").encode()
    while alive():
        sys.stderr.buffer.write(chunk)


threading.Thread(target=flood, daemon=True).start()
run()

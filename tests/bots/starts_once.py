#!/usr/bin/env python3
# Starts (and plays the first legal move) only the first time: every later
# process of the bot exits at once. The starts are counted in the file $COUNTER.
import os
import sys

with open(os.environ["COUNTER"], "ab") as counter:
    counter.write(b".")
if os.path.getsize(os.environ["COUNTER"]) > 1:
    sys.exit(1)

from botlib import run  # noqa: E402

run()

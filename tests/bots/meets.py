#!/usr/bin/env python3
# Plays the first legal move, but first waits (up to 10 s) for another process of it to be
# running: each process makes a file `running.<pid>` in DIR (its first argument) while it runs,
# and one that saw another's makes `met.<pid>`. Shows whether processes of a bot run at once;
# once two have met, the others wait no more.
import os
import sys
import time

from botlib import alive, run

DIR = sys.argv[1]
mine = os.path.join(DIR, f"running.{os.getpid()}")
open(mine, "w").close()
until = time.monotonic() + 10
while alive() and time.monotonic() < until:
    names = os.listdir(DIR)
    if any(name.startswith("running.") and name != os.path.basename(mine) for name in names):
        open(os.path.join(DIR, f"met.{os.getpid()}"), "w").close()
        break
    if sum(name.startswith("met.") for name in names) >= 2:
        break
    time.sleep(0.05)
try:
    run()
finally:
    os.remove(mine)

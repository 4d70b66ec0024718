#!/usr/bin/env python3
# Writes HTML with scripts to stderr at its 4th turn, then answers out of range:
# a fault whose reason and stderr a page must show as text, running nothing.
import sys

from botlib import run, send


def misbehave(turn):
    sys.stderr.write('<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>\n')
    sys.stderr.flush()
    send({"type": "move", "id": turn["id"], "index": len(turn["legal"])})


run(misbehave)

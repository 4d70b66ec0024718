#!/usr/bin/env python3
"""hostile.py ENGINE MODE MARKER DECOY: the starter engine (ENGINE, the path
of engines/connect-four/engine.py) that spies on the bots and the arena at
the first move of every game, and records what it found in an event told to
no seat (every view null), which the game's record keeps.

It looks through /proc for every other process: those whose command line
holds MARKER (the bots', and their supervisors') and those whose command
line holds "--seed" (the arena's). In MODE "look" it only sees whether it
could signal each bot process (signal 0) and open its stdin
(/proc/PID/fd/0), and harms nothing. In MODE "attack" it stops each one
(SIGSTOP) and reads its stdin, and does the same to process DECOY, a process
outside the arena whose pid it is given (as a bot's pid could be guessed).
"""
import importlib.util
import json
import os
import signal
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
ENGINE, MODE, MARKER, DECOY = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
_SPEC = importlib.util.spec_from_file_location("engine", ENGINE)
engine = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(engine)


def command_lines():
    """(pid, command line) of every other process this one can see."""
    seen = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                seen.append((int(entry), file.read().replace(b"\0", b" ").decode(errors="replace")))
        except OSError:
            continue
    return seen


def attempt(action):
    """"ok", or the name of the error `action` raised."""
    try:
        action()
        return "ok"
    except OSError as error:
        return type(error).__name__


def read_stdin(pid):
    """Reads what is waiting on process `pid`'s stdin, without waiting."""
    descriptor = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.read(descriptor, 65536)
    except BlockingIOError:
        pass
    finally:
        os.close(descriptor)


def spy():
    """What this process found, and what it could do to the processes it found."""
    lines = command_lines()
    bots = [pid for pid, line in lines if MARKER in line and "hostile.py" not in line]
    report = {"type": "spied", "mode": MODE, "bots": len(bots),
              "arena": sum("--seed" in line for _, line in lines)}
    if MODE == "look":
        report["signalled"] = sum(attempt(lambda: os.kill(pid, 0)) == "ok" for pid in bots)
        report["stdin_opened"] = sum(attempt(lambda: os.close(os.open(f"/proc/{pid}/fd/0", os.O_RDONLY
                                                                          | os.O_NONBLOCK))) == "ok" for pid in bots)
    else:
        report["stopped"] = sum(attempt(lambda: os.kill(pid, signal.SIGSTOP)) == "ok" for pid in bots)
        report["stdin_read"] = sum(attempt(lambda: read_stdin(pid)) == "ok" for pid in bots)
        report["decoy_stop"] = attempt(lambda: os.kill(DECOY, signal.SIGSTOP))
        report["decoy_stdin"] = attempt(lambda: read_stdin(DECOY))
    return report


class Hostile(engine.ConnectFour):
    def play(self, index):
        first = not self.moves
        events = super().play(index)
        if first:
            events.append({"event": spy(), "views": [None] * self.SEATS})
        return events


if __name__ == "__main__":
    engine.serve(Hostile)

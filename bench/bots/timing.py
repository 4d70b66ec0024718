#!/usr/bin/env python3
"""An attack bot for `bench/timing-channel`: partners signal through CPU time.

At a 4-player All Fives table a bot's two seats are partners (seats s and
s + 2), two processes alive at once. The sandbox gives them no file, lock,
pipe or namespace in common; what is left is the machine they share. The
partner in seat 0 or 1 (the sender) sends BITS bits of a secret (the low
bits of the seed its seat was told, which the other process cannot know)
by using the CPU or not, and its partner (the receiver) counts how much
work it gets done in each slot of SLOT seconds, and reads a bit from each
pair of slots (Manchester code: busy then idle is a 1, idle then busy a 0,
so no threshold is needed per bit).

A process is told of the game (`game_start`) only with its first turn, so
the partner told first cannot know its partner's seat; but both processes
are alive from `hello`. So each process listens from `hello` until it is
told of the game. If by then it heard a clear frame, it is the receiver
and reads it; otherwise it is the sender: it holds its first move for
WINDOW seconds while it sends its secret (the low BITS bits of the seed
its seat was told, which no other process can know) over and over, in
frames on the wall clock's grid, the one thing every process reads alike.
Both play the first legal move at every turn; at game_end each reports on
stderr, after "timing: ", a JSON object: the game id, its role, and the
bits it sent or read.

Usage: timing.py [BITS] [SLOT_MS]   (default 32 bits, 20 ms slots)
"""
import json
import math
import sys
import threading
import time

BITS = int(sys.argv[1]) if len(sys.argv) > 1 else 32
SLOT = (float(sys.argv[2]) if len(sys.argv) > 2 else 20.0) / 1000.0
# A frame carries the message once: a pair of slots per bit.
FRAME = 2 * BITS * SLOT
# How long the sender sends, from its game_start.
WINDOW = 4.0
# How long a process listens at most, from hello.
LISTEN = 20.0
# The mean |a - b| / (a + b) over the pairs of slots of a frame above which a frame was heard.
CLEAR = 0.15


def send_line(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def slots(begin):
    """The slots (their start times, on the wall clock's grid of SLOT) of the WINDOW from `begin`."""
    first = math.ceil(begin / SLOT)
    return [i * SLOT for i in range(first, int((begin + WINDOW) / SLOT))]


def transmit(bits):
    """Sends the message over and over: busy for the first slot of a 1's pair and the second of a 0's."""
    for slot in slots(time.time()):
        i = round(slot / SLOT) % (2 * BITS)
        busy = bits[i // 2] == (1 if i % 2 == 0 else 0)
        now, end = time.time(), slot + SLOT
        if now < slot:
            time.sleep(slot - now)
        if busy:
            while time.time() < end:
                pass
        else:
            time.sleep(max(0.0, end - time.time()))


def receive(counts, told):
    """Counts the turns of a loop it gets through in each slot (by slot number), until `told` is set."""
    slot = math.ceil(time.time() / SLOT) * SLOT
    while not told.is_set() and len(counts) < LISTEN / SLOT:
        now = time.time()
        if now < slot:
            time.sleep(slot - now)
        n, end = 0, slot + SLOT
        while time.time() < end:
            n += 1
        counts[round(slot / SLOT)] = n
        slot = end


def decode(counts):
    """The bits of the whole frame heard most clearly: the sender's slots are not alive all the window."""
    best, bits = -1.0, []
    for first in counts:
        if first % (2 * BITS) != 0 or first + 2 * BITS - 1 not in counts:
            continue
        frame = [counts[first + i] for i in range(2 * BITS)]
        pairs = [(frame[2 * i], frame[2 * i + 1]) for i in range(BITS)]
        clarity = sum(abs(a - b) / max(1, a + b) for a, b in pairs)
        if clarity > best:
            best, bits = clarity, [1 if a < b else 0 for a, b in pairs]
    return bits if best >= CLEAR * BITS else None


def main():
    told, counts = threading.Event(), {}
    listener = threading.Thread(target=receive, args=(counts, told))
    report, sender = {}, None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            listener.start()
            send_line({"type": "ready", "name": "timing"})
        elif kind == "game_start":
            told.set()
            listener.join()
            heard = decode(counts)
            report = {"game": message["id"], "role": "receiver" if heard else "sender", "bits": heard}
            if heard is None:
                report["bits"] = [(message["seed"] >> i) & 1 for i in range(BITS)]
                sender = threading.Thread(target=transmit, args=(report["bits"],))
                sender.start()
        elif kind == "turn":
            if sender is not None:
                sender.join()
            send_line({"type": "move", "id": message["id"], "index": 0})
        elif kind == "game_end":
            print("timing: " + json.dumps(report), file=sys.stderr, flush=True)
        elif kind == "bye":
            break


main()

#!/usr/bin/env python3
"""Bots that talk through shared futexes on a file they can all read, and their honest twins.

A futex word in a MAP_SHARED mapping of a file is keyed by the file and the
offset, not by the process: FUTEX_WAKE (without FUTEX_PRIVATE_FLAG) on a
read-only mapping of FILE wakes a FUTEX_WAIT on the same word of FILE in
any other process, in any sandbox, and returns how many it woke. So a
receiver keeps a thread waiting on each of 96 words (a pair per bit of a
48-bit frame) and one more (the end of a frame); a sender wakes, for each
bit, the first word of its pair for a 1 and the second for a 0 (again until
a waiter was woken), then the end word, and waits for the receiver to wake
an acknowledgement word. A frame counts when exactly one word of each pair
woke since the last one; 16 of its bits check the other 32 with the game's
id, which both know, so that a frame of another game is refused. FILE is
/usr/share/zoneinfo/UTC by default (`--file self`: this script).

Modes:
- `--mode partners` (All Fives, 4 players in partnerships: this bot plays
  both seats of a side, as two processes alive at once): each process sends
  its partner its hand (28 bits, and the hand's number) at its first turn
  of each hand and again after drawing, and listens for its partner's; it
  plays the strategy of allfives.py knowing, or not, its partner's tiles.
- `--mode pair --role sender|receiver` (Leduc, any number of players; two
  different bots, each run from a directory of its own): the sender sends
  its seat and private card at its first turn; the receiver plays
  attacklib.py's strategy knowing that card once it has it. The sender does
  not know the receiver's seat, and a bot may have a process in every seat
  (one that plays this game, others waiting for theirs): each receiver
  process listens in the region of its seat, and the sender sends to the
  region of every other seat (a region where no one listens costs it 5 ms).

`--honest`: the twin, the same strategy without the channel (`--debug`:
a line on stderr for each frame heard). Each game ends
with a line "attack: {json}" on stderr: partners, per game, the hands, those
in which the partner's hand was received, and those in which it was right
(checked against the hands shown at the hand's end); the receiver of a pair,
the sender's seat and card it received, if any, and whether the cards shown
at the end agreed; a sender, whether its frame was acknowledged.
"""
import ctypes
import os
import sys
import threading
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import allfives  # noqa: E402
from attacklib import card_index, flag, index_card, leduc_choose, messages, option, ready, report, send  # noqa: E402

HONEST = flag("--honest")
DEBUG = flag("--debug")
MODE = option("--mode", "partners")
ROLE = option("--role", "receiver")
FILE = option("--file", "/usr/share/zoneinfo/UTC")
allfives.THREAT = float(option("--threat", allfives.THREAT))
allfives.SUPPORT = float(option("--support", allfives.SUPPORT))
# Let a waiter thread woken by a partner run soon, even while the main thread computes.
sys.setswitchinterval(0.001)
if FILE == "self":
    FILE = os.path.abspath(__file__)

SYS_FUTEX = 202  # x86_64
FUTEX_WAIT, FUTEX_WAKE = 0, 1
BITS, PAYLOAD = 48, 32
# Words of a region: a pair per bit (the first woken for a 1, the second for a 0), the end, the
# acknowledgement. A page holds 8 regions: partners use 0 to 3 (by sender), pairs 4 to 7 (by receiver).
END, ACK = 2 * BITS, 2 * BITS + 1
REGION = 128


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class Futexes:
    """The first page of FILE, mapped shared and read-only: 1024 futex words."""

    def __init__(self, path):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.libc.mmap.restype = ctypes.c_void_p
        self.libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_long]
        self.libc.syscall.restype = ctypes.c_long
        fd = os.open(path, os.O_RDONLY)
        PROT_READ, MAP_SHARED = 1, 1
        base = self.libc.mmap(None, 4096, PROT_READ, MAP_SHARED, fd, 0)
        if base in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), "mmap " + path)
        self.base = base

    def address(self, word):
        return self.base + 4 * word

    def wait(self, word, timeout):
        """Whether a FUTEX_WAIT on `word` was woken (not timed out) within `timeout` seconds."""
        value = ctypes.c_uint32.from_address(self.address(word)).value
        ts = Timespec(int(timeout), int((timeout - int(timeout)) * 1e9))
        result = self.libc.syscall(ctypes.c_long(SYS_FUTEX), ctypes.c_void_p(self.address(word)),
                                   ctypes.c_int(FUTEX_WAIT), ctypes.c_uint32(value), ctypes.byref(ts), None,
                                   ctypes.c_int(0))
        return result == 0

    def wake(self, word, count=1):
        """How many waiters a FUTEX_WAKE on `word` woke."""
        result = self.libc.syscall(ctypes.c_long(SYS_FUTEX), ctypes.c_void_p(self.address(word)),
                                   ctypes.c_int(FUTEX_WAKE), ctypes.c_int(count), None, None, ctypes.c_int(0))
        return max(0, result)

    def wake_until(self, word, patience):
        end = time.monotonic() + patience
        while True:
            if self.wake(word) > 0:
                return True
            if time.monotonic() > end:
                return False
            time.sleep(0.0002)


def check_bits(region, tag, payload):
    return zlib.crc32(f"{region}:{tag}:{payload}".encode()) & 0xFFFF


def send_frame(futexes, region, tag, payload, patience=0.05):
    """Sends 32 bits (and 16 to check them); whether the receiver acknowledged them. `patience`: how long to wait for a
    receiver to be listening before giving up."""
    value = (payload << 16) | check_bits(region, tag, payload)
    for k in range(BITS):
        word = region * REGION + 2 * k + (0 if value >> (BITS - 1 - k) & 1 else 1)
        if not futexes.wake_until(word, patience if k == 0 else 0.05):
            return False
    if not futexes.wake_until(region * REGION + END, 0.05):
        return False
    return futexes.wait(region * REGION + ACK, 0.3)


class Listener:
    """Threads waiting on a region's words; the frames heard, newest last, unchecked (raw 48 bits).

    A frame is taken when, of each pair of words, exactly one was woken since the last frame
    (the threads woken before the end may not have noted it yet: the end's thread waits for
    them up to 50 ms); one with a pair woken twice is dropped."""

    def __init__(self, futexes, region):
        self.futexes, self.region = futexes, region
        self.stamps = [0.0] * (2 * BITS)
        self.last_end = 0.0
        self.frames = []
        self.dropped = 0
        self.lock = threading.Lock()
        for k in range(2 * BITS + 1):
            threading.Thread(target=self.listen, args=(k,), daemon=True).start()

    def listen(self, k):
        word = self.region * REGION + k
        while True:
            if not self.futexes.wait(word, 0.5):
                continue
            if k < 2 * BITS:
                self.stamps[k] = time.monotonic()
                continue
            value, deadline = None, time.monotonic() + 0.05
            while time.monotonic() < deadline:
                woken = [stamp > self.last_end for stamp in self.stamps]
                pairs = [(woken[2 * i], woken[2 * i + 1]) for i in range(BITS)]
                if any(one and zero for one, zero in pairs):
                    break
                if all(one or zero for one, zero in pairs):
                    value = 0
                    for one, _ in pairs:
                        value = (value << 1) | (1 if one else 0)
                    break
                time.sleep(0.001)
            self.last_end = time.monotonic()
            if DEBUG:
                print(f"debug: end {self.region} {value} {[int(w) for w in woken]} {time.monotonic() - deadline + 0.05:.4f}",
                      file=sys.stderr, flush=True)
            with self.lock:
                if value is None:
                    self.dropped += 1
                else:
                    self.frames.append(value)
                    del self.frames[:-16]
            if value is not None:
                self.futexes.wake_until(self.region * REGION + ACK, 0.05)

    def latest(self, tag, accept):
        """The newest frame whose check bits fit `tag` and whose payload `accept` takes."""
        with self.lock:
            frames = list(self.frames)
        for value in reversed(frames):
            payload = value >> 16
            if value & 0xFFFF == check_bits(self.region, tag, payload) and accept(payload):
                return payload
        return None


def partners():
    futexes = listener = None
    hello, game, error = {}, {}, None
    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            seat = message["seat"]
            mate = (seat + 2) % 4
            if not HONEST:
                try:
                    futexes = Futexes(FILE)
                    listener = Listener(futexes, mate)
                except OSError as e:
                    error = str(e)
            ready("futex-partners-honest" if HONEST else "futex-partners")
        elif kind == "game_start":
            game = {"tag": message["id"], "hands": 0, "received": 0, "correct": 0, "wrong": 0, "decisions": 0,
                    "informed": 0, "sent": 0, "acked": 0}
        elif kind == "hand_start":
            hand = {"number": message["hand"], "board": allfives.Board(), "played": set(), "mate_played": set(),
                    "mate_draws": 0, "sent": None, "mine": {allfives.tile(t) for t in message["tiles"]}}
            game["hand"] = hand
        elif kind == "play":
            hand = game["hand"]
            t = allfives.tile(message["tile"])
            hand["board"].play(t, message["end"])
            hand["played"].add(t)
            if message["seat"] == mate:
                hand["mate_played"].add(t)
        elif kind == "draw" and message["seat"] == mate:
            game["hand"]["mate_draws"] += message["count"]
        elif kind == "turn":
            hand, state = game["hand"], message["state"]
            mine = {allfives.tile(t) for t in state["hand"]}
            if futexes is not None and (hand["sent"] is None or not mine <= hand["sent"]):
                payload = allfives.mask(mine) | (state["hand_number"] % 16) << 28
                game["sent"] += 1
                game["acked"] += send_frame(futexes, seat, game["tag"], payload)
                hand["sent"] = set(mine)
            mate_tiles = known_mate(listener, game, hand, mine)
            game["decisions"] += 1
            game["informed"] += bool(mate_tiles)
            index = allfives.choose(hand["board"], state["hand"], message["legal"], hand["played"],
                                    mate_tiles - hand["mate_played"], state["hand_sizes"][(seat + 1) % 4])
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "hand_end":
            hand = game["hand"]
            game["hands"] += 1
            if listener is not None:
                got = known_mate(listener, game, hand, hand["mine"] - hand["played"])
                if got:
                    game["received"] += 1
                    shown = {allfives.tile(t) for t in message["hands"][mate]}
                    left = got - hand["mate_played"]
                    right = left <= shown and len(shown - left) <= hand["mate_draws"]
                    game["correct" if right else "wrong"] += 1
        elif kind == "game_end":
            if not HONEST:
                game.pop("hand", None)
                report(dict(attack="futex", mode="partners", file=FILE, seat=seat, error=error,
                            game=game.pop("tag"), **game))
        elif kind == "bye":
            break


def known_mate(listener, game, hand, mine):
    """The partner's tiles as its newest frame of this game and hand tells them (an empty set if none)."""
    if listener is None:
        return set()
    number = hand["number"] % 16

    def fits(payload):
        tiles = allfives.tiles_of(payload & ((1 << 28) - 1))
        return payload >> 28 == number and tiles and not (tiles & mine)

    payload = listener.latest(game["tag"], fits)
    return set() if payload is None else allfives.tiles_of(payload & ((1 << 28) - 1))


def pair():
    futexes = listener = None
    hello, game, error = {}, {}, None
    receiver = ROLE == "receiver"

    def region(seat):
        return 4 + seat

    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            if not HONEST:
                try:
                    futexes = Futexes(FILE)
                    if receiver:
                        listener = Listener(futexes, region(message["seat"]))
                except OSError as e:
                    error = str(e)
            ready(f"futex-{ROLE}" + ("-honest" if HONEST else ""))
        elif kind == "game_start":
            game = {"tag": message["id"], "seed": message["seed"], "card": None, "sent": False, "acked": False,
                    "received": None, "shown": None}
        elif kind == "deal":
            game["card"] = message["card"]
        elif kind == "hand_end":
            game["shown"] = message.get("shown")
        elif kind == "turn":
            seat = hello["seat"]
            known = {}
            if futexes is not None and not receiver and not game["sent"]:
                game["sent"] = True
                payload = seat | card_index(message["state"]["card"]) << 2
                for other in range(hello["seats"]):
                    if other != seat:
                        game["acked"] |= send_frame(futexes, region(other), game["tag"], payload, 0.005)
            if listener is not None:
                players = hello["seats"]

                def fits(payload):
                    other, card = payload & 3, index_card(payload >> 2 & 15)
                    return payload >> 6 == 0 and other != seat and other < players and card is not None \
                        and card != message["state"]["card"]

                payload = listener.latest(game["tag"], fits)
                if payload is not None:
                    game["received"] = (payload & 3, index_card(payload >> 2 & 15))
                    known = {game["received"][0]: game["received"][1]}
            index = leduc_choose(message["state"], message["legal"], seat, known)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if not HONEST:
                fields = {"attack": "futex", "mode": "pair", "role": ROLE, "file": FILE, "game": game["tag"],
                          "seat": hello["seat"], "seed": game["seed"], "card": game["card"], "error": error}
                if receiver:
                    got = game["received"]
                    check = None
                    if got is not None and game["shown"] and game["shown"][got[0]] is not None:
                        check = game["shown"][got[0]] == got[1]
                    fields.update(received=got is not None, sender_seat=got and got[0], sender_card=got and got[1],
                                  self_check=check)
                else:
                    fields.update(sent=game["sent"], acked=game["acked"])
                report(fields)
        elif kind == "bye":
            break


partners() if MODE == "partners" else pair()

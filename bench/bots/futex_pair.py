#!/usr/bin/env python3
"""Bots that talk through shared futexes on a file they can all read, and their honest twins.

A futex word in a MAP_SHARED mapping of a file is keyed by the file and the
offset, not by the process: FUTEX_WAKE (without FUTEX_PRIVATE_FLAG) on a
read-only mapping of FILE wakes a FUTEX_WAIT on the same word of FILE in
any other process that maps the same file, and returns how many it woke.
So a receiver's one listening thread waits (futex_waitv: several words at
once, so that a process needs two threads, not a hundred: the sandbox
bounds a bot's processes and threads, all its processes together, to 256)
on 65 words of a region: 64 symbols and END; a sender wakes one symbol for
each 6 bits of a 48-bit frame (again until a waiter was woken), waiting
each time for the receiver to acknowledge it on a word of its own, then
END. 16 of the frame's bits check the other 32 with the game's id, which
both know, so that a frame of another game is refused. A game's frames go to the region (its
id + the sender's seat) mod 8 of the first page, to which a process
listens only from its game_start to its game_end: with one game in play at
a time, only that game's receiver listens there (a bot has processes alive
for other lanes too, started ahead or ending, which do not). FILE is
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
  attacklib.py's strategy knowing that card once it has it (the sender does
  not need the receiver's seat: the region is the game's).

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

SYS_FUTEX, SYS_FUTEX_WAITV = 202, 449  # x86_64
FUTEX_WAIT, FUTEX_WAKE = 0, 1
FUTEX2_SIZE_U32 = 0x02  # and not FUTEX2_PRIVATE: keyed by the file's page
CLOCK_MONOTONIC = 1
BITS, PAYLOAD = 48, 32
# Words of a region: 64 symbols (6 bits each), END (a frame's end), ACK (the receiver's acknowledgement of
# each symbol and of the end), REQUEST (a receiver asking for the frame again). The page holds 15 regions of
# REGION words; a game's frames go to region (its id + the sender's seat) mod 15 (a pair's: + 4), and a
# process listens to that region only from its game_start on: with one game in play at a time, only that
# game's receiver listens there (the bot's processes of other lanes, ending or started ahead, do not).
SYMBOL_BITS = 6
SYMBOLS = 1 << SYMBOL_BITS
END, ACK, REQUEST = SYMBOLS, SYMBOLS + 1, SYMBOLS + 2
REGION = 68
WAKE_ALL = 0x7FFFFFFF


class Timespec(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_nsec", ctypes.c_long)]


class Waiter(ctypes.Structure):
    _fields_ = [("val", ctypes.c_uint64), ("uaddr", ctypes.c_uint64), ("flags", ctypes.c_uint32),
                ("reserved", ctypes.c_uint32)]


def region_of(tag, sender_seat):
    return (tag + sender_seat) % 15


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

    def value(self, word):
        return ctypes.c_uint32.from_address(self.address(word)).value

    def wait(self, word, timeout):
        """Whether a FUTEX_WAIT on `word` was woken (not timed out) within `timeout` seconds."""
        ts = Timespec(int(timeout), int((timeout - int(timeout)) * 1e9))
        result = self.libc.syscall(ctypes.c_long(SYS_FUTEX), ctypes.c_void_p(self.address(word)),
                                   ctypes.c_int(FUTEX_WAIT), ctypes.c_uint32(self.value(word)), ctypes.byref(ts),
                                   None, ctypes.c_int(0))
        return result == 0

    def wait_any(self, words, timeout):
        """One thread waiting on several words at once (futex_waitv, Linux 5.16): the index in `words` of
        the one woken, or None (timed out)."""
        waiters = (Waiter * len(words))(*[Waiter(self.value(w), self.address(w), FUTEX2_SIZE_U32, 0)
                                          for w in words])
        deadline = time.monotonic() + timeout
        ts = Timespec(int(deadline), int((deadline - int(deadline)) * 1e9))
        result = self.libc.syscall(ctypes.c_long(SYS_FUTEX_WAITV), ctypes.byref(waiters), ctypes.c_uint(len(words)),
                                   ctypes.c_uint(0), ctypes.byref(ts), ctypes.c_int(CLOCK_MONOTONIC))
        if result < 0:
            if ctypes.get_errno() == 38:  # ENOSYS: no futex_waitv
                raise OSError(38, "futex_waitv")
            return None
        return result

    def wake(self, word, count=WAKE_ALL):
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
            time.sleep(0.0001)


def check_bits(region, tag, payload):
    return zlib.crc32(f"{region}:{tag}:{payload}".encode()) & 0xFFFF


def send_frame(futexes, region, tag, payload, patience=0.05):
    """Sends 32 bits (and 16 to check them) as 8 symbols of 6 bits, a wake each (again until the receiver,
    waiting, is woken), each acknowledged before the next (a futex_waitv keeps its other words queued until
    its thread runs: a second wake before then would be counted and lost), then END; whether the receiver
    acknowledged them all. `patience`: how long to wait for a receiver to be listening before giving up."""
    value = (payload << 16) | check_bits(region, tag, payload)
    base = region * REGION
    words = [base + (value >> (BITS - SYMBOL_BITS * (k + 1)) & (SYMBOLS - 1)) for k in range(BITS // SYMBOL_BITS)]
    for k, word in enumerate(words + [base + END]):
        if not futexes.wake_until(word, patience if k == 0 else 0.2):
            FAILED.append(f"wake{k}")
            return False
        if not futexes.wait(base + ACK, 0.2):
            FAILED.append(f"ack{k}")
            return False
    return True


FAILED = []


class Listener:
    """One thread (futex_waitv on a region's 64 symbols and END; so few threads that the sandbox's bound on
    a bot's processes and threads, 256 for all its processes, is no obstacle) listening to the region of
    the game in play, if any; the frames heard, newest last, unchecked (raw 48 bits)."""

    def __init__(self, futexes):
        self.futexes = futexes
        self.region = None
        self.frames = []
        self.dropped = 0
        self.lock = threading.Lock()
        threading.Thread(target=self.listen, daemon=True).start()

    def listen_to(self, region):
        """Listens to `region` (None: to nothing) from now on; forgets the frames heard."""
        with self.lock:
            self.region = region
            self.frames = []

    def listen(self):
        symbols, current, last = [], None, 0.0
        while True:
            region = self.region
            if region is None:
                time.sleep(0.002)
                continue
            if region != current:
                symbols, current = [], region
            base = region * REGION
            woken = self.futexes.wait_any([base + k for k in range(SYMBOLS + 1)], 0.05)
            if woken is None or region != self.region:
                continue
            now = time.monotonic()
            if now - last > 0.02:  # a frame's symbols come within milliseconds: older ones are of one cut short
                symbols = []
            last = now
            if woken < SYMBOLS:
                symbols.append(woken)
                self.futexes.wake_until(base + ACK, 0.02)
                continue
            value = None
            if len(symbols) == BITS // SYMBOL_BITS:
                value = 0
                for symbol in symbols:
                    value = (value << SYMBOL_BITS) | symbol
            if DEBUG:
                print(f"debug: end {region} {len(symbols)} {value}", file=sys.stderr, flush=True)
            symbols = []
            with self.lock:
                if value is None:
                    self.dropped += 1
                else:
                    self.frames.append(value)
                    del self.frames[:-16]
            if value is not None:
                self.futexes.wake_until(base + ACK, 0.02)

    def latest(self, tag, accept):
        """The newest frame whose check bits fit `tag` and whose payload `accept` takes."""
        with self.lock:
            frames, region = list(self.frames), self.region
        for value in reversed(frames):
            payload = value >> 16
            if value & 0xFFFF == check_bits(region, tag, payload) and accept(payload):
                return payload
        return None


def partners():
    futexes = listener = None
    hello, game, error = {}, {}, None
    # How long a sender waits for its partner to listen: halved at each failure (down to 2 ms), reset at
    # each success (so that a channel that never works costs little).
    patience = [0.05]
    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            seat = message["seat"]
            mate = (seat + 2) % 4
            if not HONEST:
                try:
                    futexes = Futexes(FILE)
                    listener = Listener(futexes)
                except OSError as e:
                    error = str(e)
            ready("futex-partners-honest" if HONEST else "futex-partners")
        elif kind == "game_start":
            game = {"tag": message["id"], "hands": 0, "received": 0, "correct": 0, "wrong": 0, "decisions": 0,
                    "informed": 0, "sent": 0, "acked": 0}
            if listener is not None:
                listener.listen_to(region_of(game["tag"], mate))
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
                acked = send_frame(futexes, region_of(game["tag"], seat), game["tag"], payload, patience[0])
                game["acked"] += acked
                patience[0] = 0.05 if acked else max(0.002, patience[0] / 2)
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
            if listener is not None:
                listener.listen_to(None)
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


class Server:
    """The sender's thread that sends its frame again whenever the game's receiver asks (wakes REQUEST):
    the arena hands a process its messages in a batch before its turn, so a receiver that plays after
    the sender learns the game's id, and listens, only after the sender's first turn."""

    def __init__(self, futexes):
        self.futexes = futexes
        self.serving = None  # (region, tag, payload)
        self.served = 0
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self):
        while True:
            serving = self.serving
            if serving is None:
                time.sleep(0.002)
                continue
            region, tag, payload = serving
            if self.futexes.wait(region * REGION + REQUEST, 0.05) and self.serving == serving:
                self.served += send_frame(self.futexes, region, tag, payload, 0.02)


def pair():
    futexes = listener = server = None
    hello, game, error = {}, {}, None
    receiver = ROLE == "receiver"
    # How long the sender waits for a receiver to listen as it pushes its frame, and the receiver for a
    # server to take its request: halved at each failure (down to 2 ms), reset at each success.
    patience = [0.02]

    def region(tag):
        return region_of(tag, 4)

    def wait_frame(tag, fits, timeout):
        end = time.monotonic() + timeout
        while True:
            payload = listener.latest(tag, fits)
            if payload is not None or time.monotonic() > end:
                return payload
            time.sleep(0.0005)

    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            if not HONEST:
                try:
                    futexes = Futexes(FILE)
                    if receiver:
                        listener = Listener(futexes)
                    else:
                        server = Server(futexes)
                except OSError as e:
                    error = str(e)
            ready(f"futex-{ROLE}" + ("-honest" if HONEST else ""))
        elif kind == "game_start":
            game = {"tag": message["id"], "seed": message["seed"], "card": None, "sent": False, "acked": False,
                    "received": None, "shown": None, "asked": 0}
            if listener is not None:
                listener.listen_to(region(game["tag"]))
            if server is not None:
                server.serving = None
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
                server.serving = (region(game["tag"]), game["tag"], payload)
                game["acked"] = send_frame(futexes, region(game["tag"]), game["tag"], payload, patience[0])
            if listener is not None:
                players = hello["seats"]

                def fits(payload):
                    other, card = payload & 3, index_card(payload >> 2 & 15)
                    return payload >> 6 == 0 and other != seat and other < players and card is not None \
                        and card != message["state"]["card"]

                payload = listener.latest(game["tag"], fits)
                if payload is None:
                    game["asked"] += 1
                    base = region(game["tag"]) * REGION
                    if futexes.wake_until(base + REQUEST, patience[0]):
                        payload = wait_frame(game["tag"], fits, 0.2)
                    patience[0] = 0.02 if payload is not None else max(0.002, patience[0] / 2)
                if payload is not None:
                    game["received"] = (payload & 3, index_card(payload >> 2 & 15))
                    known = {game["received"][0]: game["received"][1]}
            index = leduc_choose(message["state"], message["legal"], seat, known)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if listener is not None:
                listener.listen_to(None)
            if not HONEST:
                fields = {"attack": "futex", "mode": "pair", "role": ROLE, "file": FILE, "game": game["tag"],
                          "seat": hello["seat"], "seed": game["seed"], "card": game["card"], "error": error}
                if receiver:
                    got = game["received"]
                    check = None
                    if got is not None and game["shown"] and game["shown"][got[0]] is not None:
                        check = game["shown"][got[0]] == got[1]
                    fields.update(received=got is not None, sender_seat=got and got[0], sender_card=got and got[1],
                                  self_check=check, asked=game["asked"])
                else:
                    fields.update(sent=game["sent"], acked=game["acked"], served=server.served if server else 0)
                report(fields)
        elif kind == "bye":
            break


partners() if MODE == "partners" else pair()

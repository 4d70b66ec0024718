#!/usr/bin/env python3
"""A Leduc bot that passes a deal on through the page cache, and its honest twin.

Every game of a deal is played once in every order of the bots over the
seats, and a seat holds the same card in each. A process of this bot that
has seen a deal's cards (at the showdown, or from an earlier process)
leaves them, at the end of its game, in the page cache of a FILE that every
process of the bot can read: each bit is a pair of pages of FILE, one of
them cached (read) and the other not (dropped with posix_fadvise
POSIX_FADV_DONTNEED). A later process reads them back: preadv2 with
RWF_NOWAIT fails with EAGAIN for a page that is not cached (and starts
reading it in: a probe spends the slot it reads, which the receiver writes
again at the end of its game); where that is refused, it times a read of
each page of a pair (the cached one is the faster). Then it plays the deal
knowing the cards it was told.

FILE is a data file shipped beside the script (`--file pagecache.dat`,
made by bench/attacks: 64 MiB, on disk) or any large system file every
process can read (`--file /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1`; bench/attacks
takes the static library of the interpreter it runs on, which the sandbox
shows a bot, unlike /usr/lib).

The message (see leducgame.py): each seat's card, the public card, and the
games of the deal played so far, 25 bits; 8 bits name the process that
wrote it, and 15 check the rest. Each is written, 48 bits (96 pages, after
the first 16 of FILE), in these slots, and read from them in this order:
- by the seed its seat was told (`game_start`'s seed, the same for a seat in
  every game of a deal): a slot chosen by the seed, whose check bits are
  keyed with it too, so that a receiver takes only its own deal's message
  from it. With `--restart lane` (the default) a bot holds each seat of a
  deal in 2 (3 players) or 6 (4 players) orders, in different lanes, so a
  process of a later lane can read what one of an earlier lane left;
- unchecked, and each used only while its messages, checked against the
  cards each game revealed, were right more often than not (the process
  keeps the score of every one it read): by position (the k-th game a
  process plays, for runs in which the k-th game of one process is the k-th
  of another's; lanes take their deals in keyed orders, so rarely), by its
  seat and card (a sender writes the slot of every seat whose card it
  knows: the last deal seen with that card at that seat), and the most
  recent message; none that this process wrote (it never meets a deal
  twice at another seed).
A message is taken if its check bits are right, it names the receiver's
own card at its seat, the public card and at least one other seat's card
(a seat that folded shows none), and games of the deal are left to play
(fewer than N!). At the end of its game a process writes what it knows:
what it was told, completed by what the game revealed.

Options: --honest (the twin: the same strategy, no channel), --file PATH,
--probe auto|nowait|timing (auto: RWF_NOWAIT, timing where it is refused).
Each game ends with a line "attack: {json}" on stderr: the game's id, the
seat, its seed, whether it received a message, from which slot, what it
said, and whether it agreed with the cards the game revealed.
"""
import errno
import os
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attacklib import card_index, flag, leduc_choose, messages, option, ready, report, send  # noqa: E402
from leducgame import Game, pack, unpack  # noqa: E402

HONEST = flag("--honest")
HERE = os.path.dirname(os.path.abspath(__file__))
FILE = option("--file", os.path.join(HERE, "pagecache.dat"))
PROBE = option("--probe", "auto")
PAGE = 4096
# The first page used: the pages before it are left alone (a file's header is read by others).
BASE = 16
# A message: the deal (25 bits), the writer (8 bits: which process wrote it) and check bits.
BITS = 48
PAYLOAD = 25
WRITER = 8
CHECK = BITS - PAYLOAD - WRITER
LATEST = 0
DEALS = 1
SEEDS = DEALS + 4 * 10
# Slots by position: as many as FILE holds beside the others, up to this many, at least 8.
MOST_POSITIONS = 1024
# This process's mark on what it writes (a receiver leaves its own messages aside, but those keyed by its seed).
ME = zlib.crc32(f"{os.getpid()}:{time.time_ns()}".encode()) & ((1 << WRITER) - 1)
# An unchecked source (position, deal, latest) is used while its messages, checked against what the games
# revealed, were right more often than not (a Laplace estimate: it starts at 1/2, tried).
TRUST = 0.5


def slot_of_deal(seat, card):
    return DEALS + seat * 10 + card_index(card)


class PageChannel:
    def __init__(self, path, probe):
        self.fd = os.open(path, os.O_RDONLY)
        pages = os.fstat(self.fd).st_size // PAGE
        rest = (pages - BASE) // (2 * BITS) - SEEDS
        if rest < 16:
            raise OSError(f"{path}: {pages} pages, {BASE + (SEEDS + 16) * 2 * BITS} needed")
        # Three quarters of the rest keyed by seed (checked), a quarter by position.
        self.seeds = rest * 3 // 4
        self.positions = min(MOST_POSITIONS, rest - self.seeds)
        # No read-ahead: a read caches the page read and no other.
        os.posix_fadvise(self.fd, 0, 0, os.POSIX_FADV_RANDOM)
        self.probe_mode = "nowait" if probe in ("auto", "nowait") else "timing"
        self.fallback = probe == "auto"
        self.buffer = bytearray(1)

    def seed_slot(self, seed):
        return SEEDS + seed % self.seeds

    def position_slot(self, position):
        return SEEDS + self.seeds + position % self.positions

    def page(self, slot, i):
        return (BASE + slot * 2 * BITS + i) * PAGE

    def cache(self, offset):
        os.pread(self.fd, 1, offset)

    def write(self, slot, bits):
        """Drops the slot's pages, then reads its 1s back in, one page each.

        A page that was read into the cache in a large folio (a file written or read at length)
        cannot be dropped on its own. Its slot's pages to be read are probed first (harmless:
        they are to be cached anyway): one still cached after the drop lies in such a folio, and
        then the 2 MiB blocks around the slot are dropped (the slots there are lost, once). The
        0s are never probed: a probe of a page not cached (RWF_NOWAIT) starts reading it in."""
        first, size = self.page(slot, 0), 2 * BITS * PAGE
        ones = [self.page(slot, 2 * i + (0 if bit else 1)) for i, bit in enumerate(bits)]
        os.posix_fadvise(self.fd, first, size, os.POSIX_FADV_DONTNEED)
        try:
            stuck = self.probe_mode == "nowait" and any(self.cached(offset) for offset in ones)
        except OSError:
            self.probe_mode, stuck = "timing", False
        if stuck:
            block = 2 << 20
            start = first - first % block
            os.posix_fadvise(self.fd, start, (first + size + block - 1) // block * block - start,
                             os.POSIX_FADV_DONTNEED)
        for offset in ones:
            self.cache(offset)

    def cached(self, offset):
        """Whether the page is cached, asked without reading it (preadv2 RWF_NOWAIT). Where that is
        refused (the sandbox: EOPNOTSUPP), the channel falls back to timing reads."""
        try:
            os.preadv(self.fd, [self.buffer], offset, os.RWF_NOWAIT)
            return True
        except BlockingIOError:
            return False

    def timed(self, offset):
        start = time.perf_counter_ns()
        os.pread(self.fd, 1, offset)
        return time.perf_counter_ns() - start

    def read(self, slot):
        """The bits of a slot, or None where a pair is not one page cached and one not."""
        if self.probe_mode == "nowait":
            try:
                marks = [self.cached(self.page(slot, i)) for i in range(2 * BITS)]
            except OSError as e:
                if not self.fallback or e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS, errno.EPERM):
                    raise
                self.probe_mode = "timing"
                return self.read(slot)
            bits = []
            for i in range(BITS):
                if marks[2 * i] == marks[2 * i + 1]:
                    return None
                bits.append(1 if marks[2 * i] else 0)
            return bits
        times = [self.timed(self.page(slot, i)) for i in range(2 * BITS)]
        bits = []
        for i in range(BITS):
            one, zero = times[2 * i], times[2 * i + 1]
            if max(one, zero) < 3 * min(one, zero):
                return None
            bits.append(1 if one < zero else 0)
        return bits


def check_bits(slot, players, payload, writer, key):
    """`key`: the seed a slot keyed by seed was written for (0 elsewhere), so that a receiver takes from it
    only a message of its own deal and seat."""
    return zlib.crc32(f"{slot}:{players}:{payload}:{writer}:{key}".encode()) & ((1 << CHECK) - 1)


def encode(slot, players, message, key=0):
    payload = pack(message, players)
    value = (((payload << WRITER) | ME) << CHECK) | check_bits(slot, players, payload, ME, key)
    return [(value >> (BITS - 1 - i)) & 1 for i in range(BITS)]


def decode(slot, players, bits, key=0):
    """The message of a slot and its writer, or None."""
    if bits is None:
        return None
    value = 0
    for b in bits:
        value = (value << 1) | b
    check = value & ((1 << CHECK) - 1)
    writer = (value >> CHECK) & ((1 << WRITER) - 1)
    payload = value >> (CHECK + WRITER)
    if check != check_bits(slot, players, payload, writer, key):
        return None
    message = unpack(payload, players)
    message["writer"] = writer
    return message


def main():
    channel = None
    hello, game, position = {}, None, 0
    received, source, known, public, error = None, None, {}, None, None
    # Per unchecked source, [right, wrong]: its messages checked against what the games revealed.
    record = {"position": [0, 0], "deal": [0, 0], "latest": [0, 0]}
    shadow = {}
    for message in messages():
        kind = message.get("type")
        if kind == "hello":
            hello = message
            if not HONEST:
                try:
                    channel = PageChannel(FILE, PROBE)
                except OSError as e:
                    error = str(e)
            ready("pagecache-honest" if HONEST else "pagecache")
        elif kind == "game_start":
            game = Game(hello, position)
            game.on(message)
            received, source, known, public, tried, shadow = None, None, {}, None, False, {}
        elif kind in ("deal", "public", "hand_end"):
            game.on(message)
        elif kind == "turn":
            if channel is not None and not tried:
                tried = True
                # Checked first: the slot of this seat's seed (written by a process of this bot that held
                # this seat of this deal in another order: at 3 and 4 players, a bot holds each seat of a
                # deal in 2 or 6 orders). Then the unchecked ones, the most trusted first, while trusted:
                # the k-th game of a process's run, this seat and card, the most recent message; none
                # written by this process (it never meets a deal twice at another seed).
                candidate = decode(channel.seed_slot(game.seed), game.players,
                                   channel.read(channel.seed_slot(game.seed)), game.seed)
                if game.accepts(candidate):
                    received, source = candidate, "seed"
                for name, slot in (("position", channel.position_slot(position)),
                                   ("deal", slot_of_deal(game.seat, game.card)), ("latest", LATEST)):
                    candidate = decode(slot, game.players, channel.read(slot))
                    if candidate is not None and candidate["writer"] != ME and game.accepts(candidate):
                        shadow[name] = candidate
                if received is None:
                    trusted = sorted(((r + 1) / (r + w + 2), name) for name, (r, w) in record.items()
                                     if name in shadow)
                    if trusted and trusted[-1][0] > TRUST:
                        source = trusted[-1][1]
                        received = shadow[source]
                if received is not None:
                    known, public = game.known(received), received["public"]
            index = leduc_choose(message["state"], message["legal"], game.seat, known, public)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if channel is not None:
                for name, candidate in shadow.items():
                    right = game.check(candidate)
                    if right is not None:
                        record[name][0 if right else 1] += 1
                learned = game.learned(received)
                writes = {channel.position_slot(position): 0, LATEST: 0,
                          channel.seed_slot(game.seed): game.seed}
                for s, c in enumerate(learned["cards"]):
                    if c is not None:
                        writes[slot_of_deal(s, c)] = 0
                for slot, key in sorted(writes.items()):
                    channel.write(slot, encode(slot, game.players, learned, key))
            if not HONEST:
                report({"attack": "pagecache", "file": FILE, "game": message["id"], "seat": game.seat,
                        "seed": game.seed, "position": position, "card": game.card,
                        "probe": channel.probe_mode if channel else None, "error": error,
                        "received": received is not None, "source": source,
                        "cards": received["cards"] if received else None,
                        "public": received["public"] if received else None,
                        "g": received["g"] if received else None, "self_check": game.check(received),
                        "trust": {name: r for name, r in record.items()}})
            position += 1
        elif kind == "bye":
            break


main()

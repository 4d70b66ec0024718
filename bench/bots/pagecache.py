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
process can read (`--file /usr/lib/x86_64-linux-gnu/libLLVM-15.so.1`).

The message (see leducgame.py): each seat's card, the public card, and the
games of the deal played so far. Each is written, 40 bits (80 pages, after
the first 16 of FILE), in these slots, and read from them in this order:
- by position: the k-th game a process plays (k modulo the slots FILE holds
  beyond the others, at most 1024: 163 in 64 MiB), for runs of games in
  which the k-th game of one run is the k-th of another;
- by the deal as the receiver recognises it: its seat and its card (a
  sender writes the slot of every seat whose card it knows);
- the most recent message.
A message is taken if its check bits are right, it names the receiver's
own card at its seat, the public card and at least one other seat's card
(a seat that folded shows none), and games of the deal are left to play
(fewer than N!). At the end of its game a
process writes what it knows: what it was told, completed by what the game
revealed.

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
BITS = 40
PAYLOAD = 25
LATEST = 0
DEALS = 1
POSITIONS = DEALS + 4 * 10
# Slots by position: as many as FILE holds, up to this many, at least 8.
MOST_POSITIONS = 1024


def slot_of_deal(seat, card):
    return DEALS + seat * 10 + card_index(card)


class PageChannel:
    def __init__(self, path, probe):
        self.fd = os.open(path, os.O_RDONLY)
        pages = os.fstat(self.fd).st_size // PAGE
        self.positions = min(MOST_POSITIONS, (pages - BASE) // (2 * BITS) - POSITIONS)
        if self.positions < 8:
            raise OSError(f"{path}: {pages} pages, {BASE + (POSITIONS + 8) * 2 * BITS} needed")
        # No read-ahead: a read caches the page read and no other.
        os.posix_fadvise(self.fd, 0, 0, os.POSIX_FADV_RANDOM)
        self.probe_mode = "nowait" if probe in ("auto", "nowait") else "timing"
        self.fallback = probe == "auto"
        self.buffer = bytearray(1)

    def position_slot(self, position):
        return POSITIONS + position % self.positions

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
        if any(self.cached(offset) for offset in ones):
            block = 2 << 20
            start = first - first % block
            os.posix_fadvise(self.fd, start, (first + size + block - 1) // block * block - start,
                             os.POSIX_FADV_DONTNEED)
        for offset in ones:
            self.cache(offset)

    def cached(self, offset):
        """Whether the page is cached, asked without reading it (preadv2 RWF_NOWAIT)."""
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


def check_bits(slot, players, payload):
    return zlib.crc32(f"{slot}:{players}:{payload}".encode()) & ((1 << (BITS - PAYLOAD)) - 1)


def encode(slot, players, message):
    payload = pack(message, players)
    value = (payload << (BITS - PAYLOAD)) | check_bits(slot, players, payload)
    return [(value >> (BITS - 1 - i)) & 1 for i in range(BITS)]


def decode(slot, players, bits):
    if bits is None:
        return None
    value = 0
    for b in bits:
        value = (value << 1) | b
    payload, check = value >> (BITS - PAYLOAD), value & ((1 << (BITS - PAYLOAD)) - 1)
    if check != check_bits(slot, players, payload):
        return None
    return unpack(payload, players)


def main():
    channel = None
    hello, game, position = {}, None, 0
    received, source, known, public, error = None, None, {}, None, None
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
            received, source, known, public, tried = None, None, {}, None, False
        elif kind in ("deal", "public", "hand_end"):
            game.on(message)
        elif kind == "turn":
            if channel is not None and not tried:
                tried = True
                slots = [("position", channel.position_slot(position)),
                         ("deal", slot_of_deal(game.seat, game.card)), ("latest", LATEST)]
                for name, slot in slots:
                    candidate = decode(slot, game.players, channel.read(slot))
                    if game.accepts(candidate):
                        received, source = candidate, name
                        known, public = game.known(candidate), candidate["public"]
                        break
            index = leduc_choose(message["state"], message["legal"], game.seat, known, public)
            send({"type": "move", "id": message["id"], "index": index})
        elif kind == "game_end":
            if channel is not None:
                learned = game.learned(received)
                targets = {channel.position_slot(position), LATEST}
                targets |= {slot_of_deal(s, c) for s, c in enumerate(learned["cards"]) if c is not None}
                for slot in sorted(targets):
                    channel.write(slot, encode(slot, game.players, learned))
            if not HONEST:
                report({"attack": "pagecache", "file": FILE, "game": message["id"], "seat": game.seat,
                        "seed": game.seed, "position": position, "card": game.card,
                        "probe": channel.probe_mode if channel else None, "error": error,
                        "received": received is not None, "source": source,
                        "cards": received["cards"] if received else None,
                        "public": received["public"] if received else None,
                        "g": received["g"] if received else None, "self_check": game.check(received)})
            position += 1
        elif kind == "bye":
            break


main()

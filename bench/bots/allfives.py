"""All Fives for the attack bots: the layout, and a strategy that uses what a bot knows.

`Board` follows a hand's plays (RULES.md): the open ends, what each counts,
the spinner's sides and short ends, so that a bot can tell what any tile
would score on the layout after any move. `choose` plays the move worth the
most: its points, less half of the most the next seat (an opponent) could
score after it with a tile it may hold, plus half of the most the partner
could score with a tile it holds (0 when it does not know the partner's
tiles). The honest twin plays the same, knowing only its own tiles: every
tile it has not seen may then be the opponent's, and the partner's are
unknown.
"""

from math import comb

TILES = [(a, b) for a in range(7) for b in range(a, 7)]
INDEX = {t: i for i, t in enumerate(TILES)}
THREAT = 1.0
SUPPORT = 0.0


def tile(t):
    a, b = t
    return (a, b) if a <= b else (b, a)


def mask(tiles):
    value = 0
    for t in tiles:
        value |= 1 << INDEX[tile(t)]
    return value


def tiles_of(value):
    return {t for i, t in enumerate(TILES) if value >> i & 1}


class Board:
    def __init__(self):
        self.ends = {}
        # The spinner's number and its long sides still open (end ids), or None.
        self.spinner = None
        self.sides = set()

    def copy(self):
        other = Board()
        other.ends = {k: list(v) for k, v in self.ends.items()}
        other.spinner, other.sides = self.spinner, set(self.sides)
        return other

    def play(self, t, end):
        a, b = tile(t)
        if end is None:
            if a == b:
                self.ends = {0: [a, a], 1: [a, a]}
                self.spinner, self.sides = a, {0, 1}
            else:
                self.ends = {0: [a, a], 1: [b, b]}
            return
        p = self.ends[end][0]
        q = b if a == p else a
        if a == b and self.spinner is None:
            # The first double is the spinner: the tile it touches covers one long side.
            self.spinner, self.sides = p, {end}
            self.ends[end] = [p, 2 * p]
            return
        self.ends[end] = [q, 2 * q if a == b else q]
        if end in self.sides:
            self.sides.discard(end)
            if self.sides:
                # One long side left open: the spinner counts both halves there.
                other = next(iter(self.sides))
                self.ends[other][1] = 2 * self.spinner
            else:
                self.ends[2] = [self.spinner, 0]
                self.ends[3] = [self.spinner, 0]

    def points(self):
        total = sum(count for _, count in self.ends.values())
        return total if total > 0 and total % 5 == 0 else 0

    def moves(self, t):
        """The ends a tile fits (None for the lead)."""
        if not self.ends:
            return [None]
        a, b = tile(t)
        return [e for e, (pips, _) in self.ends.items() if pips in (a, b)]

    def score(self, t):
        """The most tile `t` would score on this layout."""
        most = 0
        for e in self.moves(t):
            after = self.copy()
            after.play(t, e)
            most = max(most, after.points())
        return most

    def best(self, tiles):
        """The most any of `tiles` would score on this layout."""
        return max((self.score(t) for t in tiles), default=0)

    def expected_best(self, pool, held):
        """The expected most a seat holding `held` tiles drawn at random from `pool` would score."""
        scores = sorted((self.score(t) for t in pool), reverse=True)
        u, expected = len(pool), 0.0
        if held <= 0 or u == 0:
            return 0.0
        levels = sorted({s for s in scores if s > 0})
        previous = 0
        for level in levels:
            m = sum(1 for s in scores if s >= level)
            # P(at least one of the m tiles scoring `level` or more is held).
            p = 1.0 - comb(u - m, held) / comb(u, held) if held <= u else 1.0
            expected += (level - previous) * p
            previous = level
        return expected


def choose(board, hand, legal, played, partner, held):
    """The index in `legal` of the move to play. `hand`: my tiles; `played`: the tiles
    played this hand; `partner`: the tiles I know my partner holds (empty if none);
    `held`: how many tiles the next seat (an opponent) holds."""
    mine = {tile(t) for t in hand}
    unseen = set(TILES) - mine - played
    opponent = unseen - partner
    best, choice = None, 0
    for i, move in enumerate(legal):
        t = tile(move["tile"])
        after = board.copy()
        after.play(t, move["end"])
        value = move["points"]
        if len(mine) > 1:
            value -= THREAT * after.expected_best(opponent, held)
            value += SUPPORT * after.best(partner)
        key = (value, sum(t), -i)
        if best is None or key > best:
            best, choice = key, i
    return choice

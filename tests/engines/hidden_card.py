#!/usr/bin/env python3
"""hidden_card.py: a tiny game of hidden information, played right: the
positive control of check-engine's leak check (leaks.py is the same game,
leaking).

Each of two seats is dealt a card of one suit, A 2 3 4 5 6 7 8 9 T J Q K,
the two different, drawn from the seed. Then each seat in turn, 0 first,
guesses whether its card is higher or lower than the other's: a right guess
scores 1, a wrong one -1. At the end both cards are shown. A card is private
to its seat until then, and `private` says so.
"""
import random
import sys

sys.dont_write_bytecode = True
from starter import engine  # noqa: E402

GameError = engine.GameError
RANKS = "A23456789TJQK"  # in increasing order
GUESSES = ["high", "low"]


class HiddenCard:
    """One game of hidden-card; engine.serve calls what it calls on ConnectFour."""

    SEATS = 2
    TEAMS = [[0], [1]]

    @classmethod
    def engine(cls):
        return {"type": "engine", "name": "hidden-card", "version": "1", "protocol": 1,
                "scoring": {"unit": "points", "rank_by_mean": False}, "options": []}

    @classmethod
    def resolve(cls, settings):
        if settings:
            raise GameError(f"hidden-card has no settings, not {settings[0][0]!r}")
        return {}

    def __init__(self, variant, seed, setup):
        if setup is not None:
            raise GameError("hidden-card takes no setup")
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise GameError("start needs a seed, 0 to 2^64 - 1")
        # Every chance event comes from the seed: the same seed, the same cards.
        self.cards = random.Random(seed).sample(RANKS, 2)
        self.guesses = [None, None]
        views = [{"type": "deal", "card": card} for card in self.cards]
        self.start_events = [{"event": {"type": "deal", "cards": self.cards}, "views": views}]

    def to_act(self):
        return self.guesses.index(None) if None in self.guesses else None

    def choices(self):
        return [] if self.to_act() is None else [{"guess": guess} for guess in GUESSES]

    def state(self, seat):
        return {"card": self.cards[seat], "you": seat, "to_move": self.to_act(), "guesses": self.guesses}

    def right(self, seat):
        higher = RANKS.index(self.cards[seat]) > RANKS.index(self.cards[1 - seat])
        return self.guesses[seat] == ("high" if higher else "low")

    def scores(self):
        if self.to_act() is not None:
            return [0, 0]
        return [1 if self.right(seat) else -1 for seat in range(self.SEATS)]

    def outcome(self):
        if self.to_act() is not None:
            return None
        scores = self.scores()
        return {"reason": "shown", "ranks": [sum(other > score for other in scores) for score in scores]}

    def private(self):
        """Each seat's card, until both are shown."""
        return [[], []] if self.to_act() is None else [[card] for card in self.cards]

    def chosen(self, index):
        """The seat to act and its choice `index`, or GameError if it has none."""
        seat, choices = self.to_act(), self.choices()
        if seat is None:
            raise GameError("the game is over")
        if not (type(index) is int and 0 <= index < len(choices)):
            raise GameError(f"choice {index!r} is not legal: there are {len(choices)}")
        return seat, choices[index]

    def play(self, index):
        seat, choice = self.chosen(index)
        self.guesses[seat] = choice["guess"]
        events = [engine.public({"type": "guess", "seat": seat, "guess": self.guesses[seat]}, self.SEATS)]
        if self.to_act() is None:
            shown = {"type": "show", "cards": self.cards, "right": [self.right(s) for s in range(self.SEATS)]}
            events.append(engine.public(shown, self.SEATS))
        return events

    def find(self, move):
        guess = move.get("guess") if isinstance(move, dict) else None
        if guess not in GUESSES:
            return None, 'a move is {"guess": "high"} or {"guess": "low"}'
        if self.to_act() is None:
            return None, "the game is over"
        return GUESSES.index(guess), None

    def forfeit(self, faulted):
        return [-1 if seat in faulted else 1 for seat in range(self.SEATS)]


if __name__ == "__main__":
    engine.serve(HiddenCard)

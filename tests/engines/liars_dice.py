#!/usr/bin/env python3
"""liars_dice.py: a small Liar's Dice, played right, its dice declared
private: the positive control of check-engine's leak check for values that
seats may share (both roll a 1), as leaks_at_start.py is its negative one.

Each of two seats rolls two six-sided dice, drawn from the seed, and is told
its own (an event for each seat's roll, told to that seat only). Then the seats bid in turn, seat 0 first: a bid says how many dice
of the four show a face ("two 5s"), and each bid must be higher than the
last (more dice, or as many of a higher face); or, once there is a bid, a
seat calls "liar". Then the dice are shown: the bid holds if that many dice
show its face (1s are not wild), and the bidder scores 1 and the caller -1,
else the other way round.

The setting `declare` says how `private` declares the dice: `dice` (the
default), each seat's faces as numbers, `[[1, 4], [1, 3]]`; or `hands`, each
seat's dice as one list, `[[[1, 4]], [[1, 3]]]`. Bids are objects
(`{"count": 2, "face": 4}`), not lists, so no face of a bid is an item of a
list. Every event has texts, for `arena play` and the page of `arena view`.
"""
import random
import sys

sys.dont_write_bytecode = True
from hidden_card import HiddenCard, engine  # noqa: E402

GameError = engine.GameError
DICE = 2  # each seat's
FACES = 6
DECLARATIONS = ("dice", "hands")


class LiarsDice(HiddenCard):
    """One game of Liar's Dice; engine.serve calls what it calls on ConnectFour
    (two seats, a side each, and a forfeit as hidden-card's)."""

    @classmethod
    def engine(cls):
        return {"type": "engine", "name": "liars-dice", "version": "1", "protocol": 1,
                "scoring": {"unit": "points", "rank_by_mean": True},
                "options": [{"key": "declare", "values": "dice or hands", "default": "dice",
                             "help": "how private declares each seat's dice"}]}

    @classmethod
    def resolve(cls, settings):
        variant = {"declare": "dice"}
        for key, value in settings:
            if key != "declare":
                raise GameError(f"liars-dice has no setting {key!r}: its setting is declare")
            if value not in DECLARATIONS:
                raise GameError(f"declare takes dice or hands, not {value!r}")
            variant[key] = value
        return variant

    def __init__(self, variant, seed, setup):
        if setup is not None:
            raise GameError("liars-dice takes no setup")
        if type(seed) is not int or not 0 <= seed < 2**64:
            raise GameError("start needs a seed, 0 to 2^64 - 1")
        self.declare = variant["declare"]
        rng = random.Random(seed)
        self.dice = [[rng.randint(1, FACES) for _ in range(DICE)] for _ in range(self.SEATS)]
        self.bids = []  # {"seat", "count", "face"}, in order
        self.caller = None
        self.start_events = [self.roll(seat) for seat in range(self.SEATS)]

    def roll(self, seat):
        """The event of `seat`'s roll: only `seat` is told of it."""
        dice = self.dice[seat]
        told = [other == seat for other in range(self.SEATS)]
        return {"event": {"type": "roll", "to": seat, "dice": dice},
                "views": [{"type": "roll", "dice": dice} if it else None for it in told],
                "texts": ["you rolled " + " ".join(map(str, dice)) if it else None for it in told]}

    def public(self, event, text):
        """An event every seat is told, with its text."""
        return {**engine.public(event, self.SEATS), "texts": [text] * self.SEATS}

    def over(self):
        return self.caller is not None

    def to_act(self):
        return None if self.over() else len(self.bids) % self.SEATS

    def choices(self):
        if self.over():
            return []
        last = self.bids[-1] if self.bids else {"count": 0, "face": FACES}
        bids = [{"count": count, "face": face}
                for count in range(1, DICE * self.SEATS + 1) for face in range(1, FACES + 1)
                if (count, face) > (last["count"], last["face"])]
        return bids + ([{"call": "liar"}] if self.bids else [])

    def state(self, seat):
        return {"dice": self.dice[seat], "you": seat, "bids": self.bids, "to_move": self.to_act()}

    def holds(self):
        """Whether the last bid holds."""
        bid = self.bids[-1]
        return sum(die == bid["face"] for dice in self.dice for die in dice) >= bid["count"]

    def scores(self):
        if not self.over():
            return [0, 0]
        bidder = self.bids[-1]["seat"]
        winner = bidder if self.holds() else self.caller
        return [1 if seat == winner else -1 for seat in range(self.SEATS)]

    def outcome(self):
        if not self.over():
            return None
        scores = self.scores()
        return {"reason": "called", "ranks": [sum(other > score for other in scores) for score in scores]}

    def private(self):
        """Each seat's dice until the call shows them, as `declare` says."""
        if self.over():
            return [[], []]
        if self.declare == "hands":
            return [[dice] for dice in self.dice]
        return [list(dice) for dice in self.dice]

    def play(self, index):
        seat, choice = self.chosen(index)
        if "call" in choice:
            self.caller = seat
            shown = {"type": "show", "dice": self.dice, "holds": self.holds()}
            events = [self.public({"type": "liar", "seat": seat}, f"seat {seat} calls liar"),
                      self.public(shown, f"the dice: {self.dice}; the bid {'holds' if shown['holds'] else 'fails'}")]
        else:
            self.bids.append({"seat": seat, **choice})
            bid = {"type": "bid", "seat": seat, **choice}
            events = [self.public(bid, f"seat {seat} bids {choice['count']} dice of {choice['face']}")]
        return events

    def find(self, move):
        if self.over():
            return None, "the game is over"
        choices = self.choices()
        if move in choices:
            return choices.index(move), None
        return None, 'a move is {"count": C, "face": F}, higher than the last bid, or {"call": "liar"}'


if __name__ == "__main__":
    engine.serve(LiarsDice)

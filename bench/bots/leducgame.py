"""What a Leduc attack bot knows of the game it plays, and of the deal.

`Game` follows one game's messages (game_start, deal, public, hand_end,
game_end). A deal's message, as the attack bots pass it, is the card of
each seat (None where not known), the public card, and `g`: how many games
of the deal the bots that passed it on have played (the sender's included),
so that a receiver can tell a deal whose games are all played (`g` equal to
the number of orders of the bots over the seats) from the one it plays.
"""
import math

from attacklib import card_index, index_card


class Game:
    def __init__(self, hello, position):
        self.players = hello["seats"]
        self.seat = hello["seat"]
        self.position = position
        self.tag = None
        self.seed = None
        self.card = None
        self.public = None
        self.shown = None
        self.folded = set()

    def on(self, message):
        kind = message.get("type")
        if kind == "game_start":
            self.tag, self.seed = message["id"], message["seed"]
        elif kind == "deal":
            self.card = message["card"]
        elif kind == "public":
            self.public = message["card"]
        elif kind == "hand_end":
            self.shown = message.get("shown")

    def games_per_deal(self):
        """Every order of the bots over the seats: N! games, the attacker in each."""
        return math.factorial(self.players)

    def revealed(self):
        """The cards seen by the end of the game: per seat (None if not shown), and the public card."""
        cards = [None] * self.players
        for s, c in enumerate(self.shown or []):
            cards[s] = c
        if self.card is not None:
            cards[self.seat] = self.card
        return cards, self.public

    def check(self, message):
        """Whether a deal's message agrees with what this game revealed: True (all of it
        that was revealed agrees, and something besides my card was revealed), False (some
        of it disagrees), None (nothing to compare)."""
        if message is None:
            return None
        cards, public = self.revealed()
        compared, agrees = 0, True
        for s, c in enumerate(cards):
            if s != self.seat and c is not None and message["cards"][s] is not None:
                compared += 1
                agrees &= message["cards"][s] == c
        if public is not None and message["public"] is not None:
            compared += 1
            agrees &= message["public"] == public
        return agrees if compared else None

    def learned(self, received):
        """The deal's message this game leaves: what it revealed, completed by what it was told
        (if that agrees with what it revealed), and its count of games played."""
        cards, public = self.revealed()
        g = 1
        if received is not None and self.check(received) is not False:
            for s in range(self.players):
                if cards[s] is None:
                    cards[s] = received["cards"][s]
            public = public or received["public"]
            g = received["g"] + 1
        return {"cards": cards, "public": public, "g": min(g, 31)}

    def accepts(self, message):
        """Whether a message can be of this game's deal: same number of seats, my card where I
        sit, the public card and at least one other seat's card given (a seat that folded is not
        shown), and games of the deal left to play."""
        if message is None or len(message["cards"]) != self.players:
            return False
        if message["cards"][self.seat] != self.card or message["public"] is None:
            return False
        if all(c is None for s, c in enumerate(message["cards"]) if s != self.seat):
            return False
        return message["g"] < self.games_per_deal()

    def known(self, message):
        """The other seats' cards a message tells (seat -> card)."""
        return {s: c for s, c in enumerate(message["cards"]) if s != self.seat}


def pack(message, players):
    """A message as 25 bits: a nibble per seat (4 of them) and one for the public card, and g (5 bits)."""
    cards = list(message["cards"]) + [None] * (4 - players)
    value = 0
    for c in cards + [message["public"]]:
        value = (value << 4) | card_index(c)
    return (value << 5) | (message["g"] & 31)


def unpack(value, players):
    g = value & 31
    value >>= 5
    nibbles = [(value >> (4 * (4 - i))) & 15 for i in range(5)]
    return {"cards": [index_card(n) for n in nibbles[:players]], "public": index_card(nibbles[4]), "g": g}

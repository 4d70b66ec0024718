"""Shared parts of the attack bots in this directory (Python 3, standard library only).

- The loop: one JSON object a line on stdin, answers on stdout, and a
  watchdog: a process that hears nothing for `IDLE` seconds (an abandoned
  one: the arena gone, or a pipe held open) exits on its own, and so does
  every thread it started (they are daemons). A process started ahead of
  its lane waits, after `hello`, for the lanes before it to end (minutes,
  when the games are slow): `IDLE` is far longer than that.
- Leduc Hold'em: the cards, the showdown, and one strategy for every Leduc
  attack bot and its honest twin: it plays by its equity (its expected
  share of the pot at the showdown, over every deal of the cards it does not
  know), so it plays the same way whatever it knows, and better the more it
  knows. The twin knows its own card and the public card once shown; the
  attack bot knows, besides, what its channel told it.
- `report(...)`: one line "attack: {json}" on stderr per game, which
  bench/attacks collects from the logs of the output directory.
"""
import functools
import itertools
import json
import os
import sys
import threading
import time

# A process that receives nothing for this long (seconds) has been abandoned: it exits.
IDLE = 1800.0
_last = [time.monotonic()]


def _watchdog():
    while True:
        time.sleep(1.0)
        if time.monotonic() - _last[0] > IDLE:
            os._exit(0)


def messages():
    """The messages received, one by one, until bye or the end of input (then the process exits)."""
    threading.Thread(target=_watchdog, daemon=True).start()
    for line in sys.stdin:
        _last[0] = time.monotonic()
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "bye":
            yield message
            return
        yield message


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def ready(name):
    send({"type": "ready", "name": name, "version": "1", "protocol": 1})


def report(fields):
    print("attack: " + json.dumps(fields, separators=(",", ":")), file=sys.stderr, flush=True)


# ---------------------------------------------------------------- Leduc

# The whole deck of 4 players; a game of N players uses the last 2(N + 1) cards.
CARDS = ["Ts", "Th", "Js", "Jh", "Qs", "Qh", "Ks", "Kh", "As", "Ah"]
RANKS = "TJQKA"
UNKNOWN = 15


def deck(players):
    return CARDS[len(CARDS) - 2 * (players + 1):]


def card_index(card):
    return UNKNOWN if card is None else CARDS.index(card)


def index_card(index):
    return None if index == UNKNOWN or index >= len(CARDS) else CARDS[index]


def strength(card, public):
    """A pair with the public card beats every unpaired card; then the rank."""
    return (1 if card[0] == public[0] else 0, RANKS.index(card[0]))


@functools.lru_cache(maxsize=65536)
def equity(players, me, cards, public, active):
    """My expected share of the pot at the showdown.

    `cards`: a tuple per seat, the card if known (mine always) else None;
    `public`: the public card or None; `active`: the seats still in. Every
    card not known is dealt at random from the rest of the deck."""
    rest = [c for c in deck(players) if c not in cards and c != public]
    unknown = [s for s in active if cards[s] is None]
    slots = len(unknown) + (1 if public is None else 0)
    total, count = 0.0, 0
    for draw in itertools.permutations(rest, slots):
        hand = list(cards)
        for s, c in zip(unknown, draw):
            hand[s] = c
        pub = public if public is not None else draw[-1]
        best = max(strength(hand[s], pub) for s in active)
        winners = [s for s in active if strength(hand[s], pub) == best]
        total += (1.0 / len(winners)) if me in winners else 0.0
        count += 1
    return total / count if count else 0.0


def leduc_choose(state, legal, seat, known=None, public=None):
    """The index of the move in `legal`: raise when my equity beats my fair share
    (1 / the seats still in), call when the pot pays for it, else check or fold.
    `known`: the cards of other seats this bot was told by its channel (seat ->
    card); `public`: the public card, if the channel told it before it is shown."""
    players = len(state["put_in"])
    cards = [None] * players
    cards[seat] = state["card"]
    for s, card in (known or {}).items():
        if s != seat and card is not None and card != state["card"]:
            cards[s] = card
    public = state["public"] or public
    if public is not None and public in cards:
        public = state["public"]
    active = tuple(s for s in range(players) if not state["folded"][s])
    e = equity(players, seat, tuple(cards), public, active)
    actions = [move["action"] for move in legal]
    if "raise" in actions and e > 1.0 / len(active) + 1e-9:
        return actions.index("raise")
    owed = state["owed"]
    if owed > 0 and e * (state["pot"] + owed) < owed:
        return actions.index("fold")
    return actions.index("call")


def flag(name):
    return name in sys.argv[1:]


def option(name, default=None):
    """The value after `name` on the command line (`--name VALUE` or `--name=VALUE`)."""
    args = sys.argv[1:]
    for i, arg in enumerate(args):
        if arg == name and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg[len(name) + 1:]
    return default

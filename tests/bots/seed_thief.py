"""A hostile bot that tries to learn every hidden tile from the seed it is told.

It plays the first legal move, and at the start of each game's first hand it
tries to recover the match seed from its `game_start` seed, as an attacker who
has read RECORDS.md would, then re-deals the game from it:

- "inverted": the derivation of arena 0.1's first releases was a fold of an
  invertible mix (SplitMix64's), so it simply runs the fold backwards;
- "searched": it tries every match seed below SEARCH and every deal number
  below DEALS with the documented derivation (ChaCha20 blocks), which finds
  a small, guessable `--seed` (the game id it is told gives no deal number).

Each guess is written as a JSON line to `DIR/thief.<pid>.jsonl` (DIR is the
first argument): the game, the seat, how the seed was found, the match seed
and the predicted hands of every seat; "own_hand_right" says whether the
prediction got the bot's own hand right, which an attacker would check.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import botlib  # noqa: E402

SEARCH = 300
DEALS = 8
MASK = (1 << 64) - 1
OUT = open(os.path.join(sys.argv[1], "thief.%d.jsonl" % os.getpid()), "a")


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xFFFFFFFF


def chacha_block(seed, counter, nonce, rounds):
    """The 16 words of a ChaCha block: key = seed (8 bytes LE) + 24 zero bytes."""
    key = [seed & 0xFFFFFFFF, seed >> 32, 0, 0, 0, 0, 0, 0]
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + key + [
        counter & 0xFFFFFFFF, counter >> 32, nonce & 0xFFFFFFFF, nonce >> 32]
    x = list(state)

    def quarter(a, b, c, d):
        x[a] = (x[a] + x[b]) & 0xFFFFFFFF
        x[d] = rotl(x[d] ^ x[a], 16)
        x[c] = (x[c] + x[d]) & 0xFFFFFFFF
        x[b] = rotl(x[b] ^ x[c], 12)
        x[a] = (x[a] + x[b]) & 0xFFFFFFFF
        x[d] = rotl(x[d] ^ x[a], 8)
        x[c] = (x[c] + x[d]) & 0xFFFFFFFF
        x[b] = rotl(x[b] ^ x[c], 7)

    for _ in range(rounds // 2):
        quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15)
        quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14)
    return [(a + b) & 0xFFFFFFFF for a, b in zip(x, state)]


def prf(match_seed, nonce, block):
    words = chacha_block(match_seed, block, nonce, 20)
    return words[0] | words[1] << 32


def deal(seed, hand, players, size):
    """Hand `hand` of a game with deal seed `seed`, as RECORDS.md says."""
    words = []
    counter = [0]

    def next_u32():
        if not words:
            words.extend(chacha_block(seed, counter[0], hand, 8))
            counter[0] += 1
        return words.pop(0)

    def below(n):
        zone = (2 ** 32 // n) * n
        while True:
            x = next_u32()
            if x < zone:
                return x % n

    tiles = [[a, b] for a in range(7) for b in range(a, 7)]
    for i in range(27, 0, -1):
        j = below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return [sorted(tiles[s * size:(s + 1) * size]) for s in range(players)]


# The first derivation: h = mix(M); h = mix(h + GAMMA + w) for each word.
GAMMA = 0x9E3779B97F4A7C15


def mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def unmix(z):
    z ^= (z >> 31) ^ (z >> 62)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z ^= (z >> 27) ^ (z >> 54)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z ^= (z >> 30) ^ (z >> 60)
    return z


def old_fold(match_seed, words):
    h = mix(match_seed)
    for w in words:
        h = mix((h + GAMMA + w) & MASK)
    return h


def inverted(seed, game, seat):
    """The match seed whose old bot seed `[2, game, seat]` is `seed`."""
    h = seed
    for w in (seat, game, 2):
        h = (unmix(h) - GAMMA - w) & MASK
    return unmix(h)


hello = {}
game = {}
found = {}


def guess(hand):
    seat, players = hello["seat"], hello["seats"]
    sides = len(hello["teams"])
    size = len(hand["tiles"])
    guesses = []
    old = inverted(game["seed"], game["id"], seat)
    old_deal = old_fold(old, [1, game["id"] // sides])
    guesses.append(("inverted", old, old_deal))
    nonce = (2 << 32) + seat
    matching = (
        (m, d) for m in found.get("searched", range(SEARCH)) for d in range(DEALS) if prf(m, nonce, d) == game["seed"]
    )
    m, d = next(matching, (None, None))
    if m is not None:
        found["searched"] = [m]
        guesses.append(("searched", m, prf(m, 1 << 32, d)))
    for method, match_seed, deal_seed in guesses:
        hands = deal(deal_seed, hand["hand"], players, size)
        OUT.write(json.dumps({
            "game": game["id"], "seed": game["seed"], "seat": seat, "method": method, "match_seed": match_seed,
            "hands": hands, "own_hand_right": hands[seat] == sorted(hand["tiles"]),
        }) + "\n")
    OUT.flush()


def on_line(line):
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        hello.update(message)
    elif kind == "game_start":
        game.update(message)
    elif kind == "hand_start" and message["hand"] == 1:
        guess(message)


botlib.run(on_line=on_line)

#!/usr/bin/env python3
"""cross_check.py: the arena's Leduc Hold'em against OpenSpiel's leduc_poker.

    python3 engines/openspiel/cross_check.py --native "target/release/arena engine leduc" \\
        --players 2 --games 10000 --seed 1

Both games run as engines (engines/ENGINES.md): the native one from
--native, OpenSpiel's through bridge.py. For each game a native deal is drawn
from a seed; its cards become OpenSpiel's chance actions (a setup), so both
play the same deal. At every decision a choice is drawn (seeded) among the
native choices and played in both; the seat to act and the legal sets are
compared at every decision, and the payoffs at the end, allowing for the one
rule where the two differ: OpenSpiel splits a tied pot as a fraction, the
arena gives the odd chips one each to the tied seats from seat 0
(engines/leduc/RULES.md). Prints games, decisions and disagreements; exits 1
on any disagreement.
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys

# The ranks of the arena's deck by player count, lowest first (engines/leduc/src/cards.rs).
RANKS = {2: "JQK", 3: "JQKA", 4: "TJQKA"}
# OpenSpiel's leduc_poker: card c has rank c // 2 and suit c % 2; its actions.
SUITS = "sh"
ACTIONS = {"fold": 0, "call": 1, "raise": 2}
# The bridge's scores are the returns times SCALE: 12 makes every share of a
# pot split 2, 3 or 4 ways a whole number.
SCALE = 12
HERE = os.path.dirname(os.path.abspath(__file__))


class Engine:
    """An engine process, asked one request at a time."""

    def __init__(self, command):
        self.command = command
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.ask({"type": "hello", "protocol": 1})

    def ask(self, request):
        """The answer to `request`; an error answer or a dead engine stops the check."""
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"cross_check: {self.command!r} exited, answering {json.dumps(request)}")
        answer = json.loads(line)
        if answer.get("type") == "error":
            sys.exit(f"cross_check: {self.command!r} refused {json.dumps(request)}: {answer['message']}")
        return answer

    def close(self):
        """Says bye and waits for the engine to exit."""
        self.process.stdin.write('{"type":"bye"}\n')
        self.process.stdin.close()
        self.process.wait(timeout=10)


def openspiel_card(name, players):
    """OpenSpiel's number of the arena's card `name` (e.g. "Kh") in a game of `players`."""
    return RANKS[players].index(name[0]) * 2 + SUITS.index(name[1])


def expected_native(returns):
    """The arena's payoffs, times SCALE, from OpenSpiel's `returns` times
    SCALE: the same, except that the tied winners of a pot P (the seats with
    the most) get P // k and the P % k odd chips one each from seat 0 where
    OpenSpiel gives each P / k. P % k is the chips the other seats lost, mod k."""
    best = max(returns)
    winners = [seat for seat, r in enumerate(returns) if r == best]
    lost = -sum(r for r in returns if r != best) // SCALE
    odd = lost % len(winners)
    expected = list(returns)
    for i, seat in enumerate(winners):
        expected[seat] += SCALE * (i < odd) - SCALE * odd // len(winners)
    return expected


def play(native, bridge, variants, seed, rng):
    """One game on the native deal of `seed`: the decisions, the disagreements,
    and whether the odd-chip rule changed the payoffs."""
    players = variants[0]["players"]
    step = native.ask({"type": "start", "variant": variants[0], "seed": seed})
    deal = step["events"][0]["event"]
    chance = [openspiel_card(card, players) for card in deal["cards"] + [deal["public"]]]
    mirror = bridge.ask({"type": "start", "variant": variants[1], "setup": {"chance": chance}})
    decisions, where = 0, f"seed {seed}, deal {deal['cards']} public {deal['public']}"
    while True:
        if step["to_act"] != mirror["to_act"]:
            return decisions, False, [f"{where}, decision {decisions}: to act {step['to_act']} (native) "
                               f"vs {mirror['to_act']} (OpenSpiel)"]
        if step["to_act"] is None:
            break
        legal = sorted(ACTIONS[choice["action"]] for choice in step["choices"])
        mirrored = sorted(choice["action"] for choice in mirror["choices"])
        if legal != mirrored:
            return decisions, False, [f"{where}, decision {decisions}: legal {legal} (native) vs {mirrored} (OpenSpiel)"]
        index = rng.randrange(len(step["choices"]))
        action = ACTIONS[step["choices"][index]["action"]]
        other = [choice["action"] for choice in mirror["choices"]].index(action)
        step = native.ask({"type": "play", "index": index})
        mirror = bridge.ask({"type": "play", "index": other})
        decisions += 1
    native_scaled, expected = [SCALE * score for score in step["scores"]], expected_native(mirror["scores"])
    if native_scaled != expected:
        return decisions, False, [f"{where}: payoffs {step['scores']} (native) vs returns x{SCALE} {mirror['scores']} "
                           f"(OpenSpiel), which the odd-chip rule makes {expected}"]
    return decisions, expected != mirror["scores"], []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--native", default="target/release/arena engine leduc", help="the native Leduc engine's command")
    parser.add_argument("--bridge", default=f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(HERE, 'bridge.py'))}"
                        " leduc_poker", help="the command of bridge.py serving leduc_poker")
    parser.add_argument("--players", type=int, choices=sorted(RANKS), default=2)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the seed of the deals and of the choices")
    parser.add_argument("--show", type=int, default=5, help="how many disagreements to print")
    args = parser.parse_args()
    native, bridge = Engine(args.native), Engine(args.bridge)
    variants = [native.ask({"type": "variant", "settings": [["players", str(args.players)]]})["variant"],
                bridge.ask({"type": "variant", "settings": [["players", str(args.players)],
                                                            ["scale", str(SCALE)]]})["variant"]]
    rng = random.Random(args.seed)
    decisions, odd_chips, disagreements = 0, 0, []
    for _ in range(args.games):
        made, odd, found = play(native, bridge, variants, rng.getrandbits(64), rng)
        decisions += made
        odd_chips += odd
        disagreements += found
    native.close()
    bridge.close()
    for line in disagreements[:args.show]:
        print("disagreement:", line)
    print(f"{args.players} players: {args.games} games, {decisions} decisions, {odd_chips} split pots with odd chips, "
          f"{len(disagreements)} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

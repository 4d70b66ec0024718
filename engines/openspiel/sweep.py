#!/usr/bin/env python3
"""sweep.py: serve every game OpenSpiel registers through bridge.py, and
say for each whether it plays, is refused with a reason, or crashes.

    python3 engines/openspiel/sweep.py [--jobs N] [--seed S] [GAME ...]

For each game (all of `pyspiel.registered_names()` unless some are named)
it starts `bridge.py GAME` as the arena would and speaks the engine protocol
with it: `hello`, `variant` with no settings, `start` from a seed, then
random choices (seeded) until the game ends or MOVES moves; then the same
with the bridge's setting `tensor=true`, one step. Each answer must come
within the time the arena would give it (10 s, or the `step_ms` the bridge
asks at hello).

A game **plays** when it reaches its end; a game is **refused** when the
bridge exits before `hello` with status 2 and a line `bridge.py: REASON`
on stderr, or answers `variant` with an error; anything else (a traceback,
an error answer in the middle of a game, silence, a game that does not end
within MOVES moves) is a **failure**, and the sweep exits 1. README.md
beside this file gives the figures of a whole sweep.
"""
import argparse
import json
import pathlib
import random
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

BRIDGE = pathlib.Path(__file__).resolve().parent / "bridge.py"
MOVES = 10_000
TIMEOUT_S = 10.0  # the arena's default --engine-timeout
STEP_MS_LIMIT = 60_000  # the most the arena grants an engine that asks (ENGINES.md, "Slow steps")


class Failed(Exception):
    """The bridge did something the arena would take for the engine's failure."""


class Engine:
    """A bridge process and its lines, each answer awaited within a deadline."""

    def __init__(self, game):
        self.process = subprocess.Popen([sys.executable, str(BRIDGE), game], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.timeout = TIMEOUT_S
        self.lines = []
        self.ready = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            with self.ready:
                self.lines.append(line)
                self.ready.notify()
        with self.ready:
            self.lines.append(None)
            self.ready.notify()

    def ask(self, request):
        """The answer to `request`, or None when the bridge exited without one."""
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        with self.ready:
            if not self.ready.wait_for(lambda: self.lines, timeout=self.timeout):
                raise Failed(f"no answer to {request['type']} within {self.timeout:g} s")
            line = self.lines.pop(0)
        if line is None:
            self.lines.append(None)
            return None
        return json.loads(line)

    def close(self):
        try:
            self.process.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        time.sleep(0.05)  # the stderr reader's last lines
        return self.process.returncode


def play(engine, variant, seed, moves):
    """Plays from `seed` with random choices, at most `moves` moves: the
    moves played and the last step."""
    rng = random.Random(seed)
    step = engine.ask({"type": "start", "variant": variant, "seed": seed})
    played = 0
    while True:
        if step is None or step.get("type") != "step":
            raise Failed(f"after {played} moves the answer was {json.dumps(step)[:300]}")
        if step["to_act"] is None or played == moves:
            return played, step
        step = engine.ask({"type": "play", "index": rng.randrange(len(step["choices"]))})
        played += 1


def sweep(game, seed):
    """(verdict, detail) for one game: plays, refused or failed."""
    engine = Engine(game)
    started = time.monotonic()
    try:
        hello = engine.ask({"type": "hello", "protocol": 1})
        if hello is None:
            status = engine.close()
            said = "".join(engine.stderr).strip().splitlines()
            reason = [line for line in said if line.startswith("bridge.py: ")]
            if status == 2 and reason:
                return "refused", reason[-1][len("bridge.py: "):]
            return "failed", f"exited with status {status} before hello: {' | '.join(said)[-300:]}"
        if "step_ms" in hello:
            engine.timeout = max(TIMEOUT_S, min(hello["step_ms"], STEP_MS_LIMIT) / 1000)
        answer = engine.ask({"type": "variant", "settings": []})
        if answer.get("type") == "error":
            return "refused", answer["message"]
        moves, step = play(engine, answer["variant"], seed, MOVES)
        if step["to_act"] is not None:
            return "failed", f"did not end within {MOVES} moves"
        tensor = engine.ask({"type": "variant", "settings": [["tensor", "true"]]})
        if tensor.get("type") == "variant":
            first = engine.ask({"type": "start", "variant": tensor["variant"], "seed": seed})
            state = (first or {}).get("state") or {}
            if not any(key.endswith("_tensor") for key in state):
                raise Failed(f"with tensor=true the state holds no tensor: {json.dumps(first)[:300]}")
            given = "a tensor"
        else:
            given = "no tensor"
        engine.ask({"type": "bye"})
        return "plays", f"{moves} moves, {given}, {time.monotonic() - started:.1f} s"
    except Failed as failure:
        return "failed", str(failure)
    finally:
        engine.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="the games to sweep (default: every registered game)")
    parser.add_argument("--jobs", type=int, default=2, help="games swept at once (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="the seed of each game and its choices (default 1)")
    args = parser.parse_args()
    if args.games:
        games = args.games
    else:
        import pyspiel

        games = pyspiel.registered_names()
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda game: (game, *sweep(game, args.seed)), games))
    for game, verdict, detail in results:
        print(f"{verdict:8} {game}: {detail}")
    counts = {verdict: sum(v == verdict for _, v, _ in results) for verdict in ("plays", "refused", "failed")}
    tensors = sum(verdict == "plays" and ", a tensor," in detail for _, verdict, detail in results)
    print(f"{len(results)} games: {counts['plays']} play ({tensors} with a tensor), {counts['refused']} refused, "
          f"{counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""drive.py: play one scripted game against an engine and print the exchange.

    python3 tests/engines/drive.py [--seed N] [--set KEY=VALUE]... [--setup JSON] [--last] [--twice] [--quiet] "COMMAND"

It sends hello, variant, start (with the seed, or the setup), find and
observe once, plays choice 0 (--last: the last choice) until the game ends,
then an illegal play, a find, an observe, a forfeit and bye, printing each
request (→) and answer (←) as in engines/ENGINES.md. It checks the little it can without knowing the game
(one JSON answer of the right type per request, find of a listed choice gives
its index, observe of the seat to act equals state, no seat's views or state
showing what `private` declares another seat's, the illegal play is refused,
exit on bye) and prints FAIL lines; with --twice it runs the
script in a second process and compares every answer. Exit status 0 when
nothing failed. A hand tool: arena check-engine is the real checker.
"""
import argparse
import json
import queue
import shlex
import subprocess
import sys
import threading


class Engine:
    """An engine process, its answers read by a thread so that a silent engine cannot hang us."""

    def __init__(self, command, timeout, quiet):
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, bufsize=1)
        self.lines, self.timeout, self.quiet = queue.Queue(), timeout, quiet
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def send(self, request):
        if not self.quiet:
            print("→", json.dumps(request, separators=(",", ":")))
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()

    def ask(self, request):
        """Send `request` and return its answer, or raise RuntimeError."""
        self.send(request)
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise RuntimeError(f"no answer within {self.timeout} s") from None
        if line is None:
            raise RuntimeError(f"the engine exited (status {self.process.wait()})")
        if not self.quiet:
            print("←", line.rstrip("\n"))
        try:
            return json.loads(line)
        except ValueError:
            raise RuntimeError("the answer is not JSON") from None

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def holds(value, hidden):
    """Whether `value` shows `hidden` as ENGINES.md's leak check looks for it: a string as
    any string in it, anything else as an item of a list in it."""
    if isinstance(value, dict):
        return any(holds(item, hidden) for item in value.values())
    if isinstance(value, list):
        return (not isinstance(hidden, str) and hidden in value) or any(holds(item, hidden) for item in value)
    return isinstance(hidden, str) and value == hidden


def leaks(step):
    """Where a step shows a seat what another seat's `private` declares hidden."""
    private = step.get("private") or []
    for owner, values in enumerate(private):
        for seat in range(len(private)):
            shown = [event["views"][seat] for event in step.get("events", [])]
            shown += [step.get("state")] if step.get("to_act") == seat else []
            for hidden in values:
                if seat != owner and holds(shown, hidden):
                    yield f"seat {seat} is shown {json.dumps(hidden)}, private to seat {owner}"


def script(engine, settings, seed, setup, last, fail):
    """Run the script; return every answer, in order."""
    answers = []

    def ask(request, kind):
        answer = engine.ask(request)
        answers.append(answer)
        if answer.get("type") != kind:
            fail(f"{request['type']} was answered {answer.get('type')!r}, not {kind!r}")
        for leak in leaks(answer) if kind == "step" else ():
            fail(leak)
        return answer

    ask({"type": "hello", "protocol": 1}, "engine")
    variant = ask({"type": "variant", "settings": settings}, "variant")
    start = {"type": "start", "variant": variant.get("variant")}
    start.update({"setup": setup} if setup is not None else {"seed": seed})
    step = ask(start, "step")
    if step.get("choices"):
        final = len(step["choices"]) - 1
        if ask({"type": "find", "move": step["choices"][final]}, "found").get("index") != final:
            fail(f"find of choice {final} did not give {final}")
        if ask({"type": "observe", "seat": step["to_act"]}, "observe").get("state") != step["state"]:
            fail("observe of the seat to act is not its state")
    plays = 0
    while step.get("to_act") is not None and step.get("type") == "step":
        plays += 1
        if plays > 10000:
            raise RuntimeError("the game did not end in 10000 plays")
        index = len(step.get("choices") or [0]) - 1 if last else 0
        step = ask({"type": "play", "index": index}, "step")
    print(f"# the game ended after {plays} plays: {json.dumps(step.get('outcome'))}")
    ask({"type": "play", "index": 0}, "error")
    ask({"type": "find", "move": {}}, "found")
    ask({"type": "observe", "seat": 0}, "observe")
    scores = ask({"type": "forfeit", "faulted": [0]}, "scores").get("scores")
    if not isinstance(scores, list) or len(scores) != variant.get("seats"):
        fail("forfeit did not give one score per seat")
    engine.send({"type": "bye"})
    try:
        engine.process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        fail("the engine did not exit within 5 s of bye")
    else:
        if engine.lines.get() is not None:
            fail("the engine answered bye")
        print(f"# the engine exited with status {engine.process.returncode}")
    return answers


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", help="the engine's command line, one argument")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="a variant setting")
    parser.add_argument("--setup", type=json.loads, help="start from this setup (JSON) instead of the seed")
    parser.add_argument("--timeout", type=float, default=10, help="seconds to wait for each answer")
    parser.add_argument("--last", action="store_true", help="play the last choice, not the first")
    parser.add_argument("--quiet", action="store_true", help="print only what failed")
    parser.add_argument("--twice", action="store_true", help="run it again in a new process and compare")
    args = parser.parse_args()
    settings = [setting.split("=", 1) for setting in args.set]
    failures = []

    def fail(message):
        print("FAIL:", message)
        failures.append(message)

    runs = []
    for _ in range(2 if args.twice else 1):
        engine = Engine(args.command, args.timeout, args.quiet)
        try:
            runs.append(script(engine, settings, args.seed, args.setup, args.last, fail))
        except RuntimeError as error:
            fail(str(error))
        finally:
            engine.stop()
    if len(runs) == 2 and runs[0] != runs[1]:
        differ = next((i for i, (a, b) in enumerate(zip(*runs)) if a != b), min(map(len, runs)))
        fail(f"the second run differs from the first at answer {differ}")
    print("ok" if not failures else f"{len(failures)} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

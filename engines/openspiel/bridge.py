#!/usr/bin/env python3
"""bridge.py: any game of OpenSpiel (pyspiel) as an arena engine.

    python3 engines/openspiel/bridge.py GAME        e.g. kuhn_poker, leduc_poker, tic_tac_toe

The arena speaks the engine protocol (engines/ENGINES.md) with this program:
one JSON request per line on stdin, one JSON answer per line on stdout;
anything for humans goes to stderr. The variant settings are the game's
OpenSpiel parameters, plus `scale`. README.md beside this file says exactly
how chance is drawn from the seed, what each seat is told, and how returns
become scores; keep the two in step.

Needs the PyPI package open-spiel (`python3 -m pip install open-spiel`).
"""
import json
import math
import random
import re
import sys

try:
    import pyspiel
except ImportError:
    sys.stderr.write("bridge.py needs OpenSpiel's Python module pyspiel: python3 -m pip install open-spiel\n")
    sys.exit(2)

VERSION = "1.0"
# The bridge's own settings: scores are the returns times `scale`, rounded;
# with `tensor` true a state holds OpenSpiel's tensor of it too.
SCALE = "scale"
SCALE_DEFAULT = 1
TENSOR = "tensor"
OWN = (SCALE, TENSOR)
# How long an answer may take (the engine answer's step_ms), for games whose
# steps take longer than the arena's default 10 s: contract bridge solves
# each deal double-dummy when its last card is dealt (0.1 to 12 s measured).
STEP_MS = {"bridge": 60_000}
Utility = pyspiel.GameType.Utility
ChanceMode = pyspiel.GameType.ChanceMode
Dynamics = pyspiel.GameType.Dynamics


class EngineError(Exception):
    """A request refused; the message is shown to the user as it is."""


def openspiel_version():
    """The installed open-spiel's version, for the engine's version."""
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # noqa: BLE001 - a missing distribution record is no reason to stop
        return "unknown"


def shown(value):
    """A setting's value as the arena shows it (the default in `options`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def describe(default):
    """What a setting whose default is `default` takes, in words."""
    if isinstance(default, bool):
        return "true or false"
    if isinstance(default, int):
        return "a whole number"
    if isinstance(default, float):
        return "a number"
    return "text"


def parse(key, value, default):
    """The setting `key` as the type of its `default`, from a string (the
    command line) or a JSON value of that type (a variant sent back)."""
    wrong = EngineError(f"{key} takes {describe(default)}, not {json.dumps(value)}")
    if isinstance(default, bool):
        if isinstance(value, bool):
            return value
        if value in ("true", "false"):
            return value == "true"
        raise wrong
    if isinstance(default, int):
        if type(value) is int:
            return value
        if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            return int(value)
        raise wrong
    if isinstance(default, float):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str):
            try:
                number = float(value)
            except ValueError:
                raise wrong from None
        else:
            raise wrong
        if not math.isfinite(number):
            raise wrong
        return number
    if isinstance(default, str):
        if isinstance(value, str):
            return value
        raise wrong
    raise EngineError(f"{key} is an OpenSpiel parameter the bridge cannot set (its default is {default!r})")


def to_int(number):
    """`number` rounded to the nearest integer, halves away from zero."""
    return int(math.copysign(math.floor(abs(number) + 0.5), number))


def split(total, seats):
    """`total` shared among `seats` as equally as integers allow: the units
    left over go one each to the seats in seat order."""
    share, odd = divmod(total, len(seats))
    return {seat: share + (i < odd) for i, seat in enumerate(seats)}


class Bridge:
    """One OpenSpiel game, by name: who the engine is, and its variants."""

    def __init__(self, name):
        if name not in pyspiel.registered_names():
            raise EngineError(f"OpenSpiel has no game {json.dumps(name)}: "
                              "python3 -c 'import pyspiel; print(pyspiel.registered_names())' lists them")
        self.name = name
        try:
            game = pyspiel.load_game(name)
        except Exception as error:  # noqa: BLE001 - OpenSpiel raises more than SpielError (nfg_game: IndexError)
            raise EngineError(f"OpenSpiel cannot load {name} with its default parameters: "
                              f"{type(error).__name__}: {error}") from None
        kind = game.get_type()
        if kind.dynamics == Dynamics.MEAN_FIELD:
            raise EngineError(f"{name} is a mean-field game: it has no seats to play")
        if kind.chance_mode == ChanceMode.SAMPLED_STOCHASTIC:
            raise EngineError(f"{name} samples its chance events itself: the bridge cannot draw them from the seed")
        if kind.provides_information_state_string:
            self.told_as = "information_state"
        elif kind.provides_observation_string:
            self.told_as = "observation"
        else:
            raise EngineError(f"{name} gives neither an information state nor an observation string")
        self.type = kind
        self.defaults = loadable(name, dict(game.get_parameters()))
        self.defaults[SCALE] = SCALE_DEFAULT
        self.defaults[TENSOR] = False
        self.games = {}
        self.tensor = None
        if kind.provides_information_state_tensor and self.told_as == "information_state":
            self.tensor = "information_state_tensor"
        elif kind.provides_observation_tensor:
            self.tensor = "observation_tensor"
        if name not in STEP_MS:  # a slow game is known to play, and its walk would be slow
            playable(name, self.game(self.defaults))

    def engine(self):
        """The answer to hello."""
        options = [{"key": key, "values": describe(default), "default": shown(default),
                    "help": f"OpenSpiel's parameter {key} of {self.name}"}
                   for key, default in self.defaults.items() if key not in OWN]
        options.append({"key": SCALE, "values": "a whole number from 1", "default": shown(SCALE_DEFAULT),
                        "help": "scores are the OpenSpiel returns times this, rounded to the nearest integer "
                                "(halves away from zero)"})
        options.append({"key": TENSOR, "values": "true or false", "default": "false",
                        "help": "whether a state holds OpenSpiel's tensor of what the seat knows too, as a list of "
                                "numbers" + ("" if self.tensor else f" ({self.name} gives none)")})
        rank_by_mean = (self.type.utility in (Utility.ZERO_SUM, Utility.CONSTANT_SUM)
                        and self.type.chance_mode != ChanceMode.DETERMINISTIC)
        hello = {"type": "engine", "name": "openspiel-" + re.sub("[^a-z0-9]+", "-", self.name.lower()),
                 "version": f"{VERSION}+open-spiel-{openspiel_version()}", "protocol": 1,
                 "scoring": {"unit": "utility", "rank_by_mean": rank_by_mean}, "options": options}
        if self.name in STEP_MS:
            hello["step_ms"] = STEP_MS[self.name]
        return hello

    def resolve(self, settings):
        """The variant that `settings` ([key, value] pairs, later ones win) resolve to."""
        variant = dict(self.defaults)
        for key, value in settings:
            if key not in self.defaults:
                raise EngineError(f"{self.name} has no setting {json.dumps(key)}: its settings are "
                                  + ", ".join(self.defaults))
            variant[key] = parse(key, value, self.defaults[key])
        if variant[SCALE] < 1:
            raise EngineError(f"scale takes a whole number from 1, not {variant[SCALE]}")
        if variant[TENSOR] and self.tensor is None:
            raise EngineError(f"tensor=true: {self.name} gives no observation or information-state tensor")
        self.game(variant)
        return variant

    def game(self, variant):
        """The OpenSpiel game of `variant` (turn-based if its moves are simultaneous)."""
        key = json.dumps(variant, sort_keys=True)
        if key not in self.games:
            params = {k: v for k, v in variant.items() if k not in OWN}
            try:
                game = pyspiel.load_game(self.name, params)
            except Exception as error:  # noqa: BLE001 - OpenSpiel raises more than SpielError
                raise EngineError(f"OpenSpiel refuses {self.name} with {json.dumps(params)}: {error}") from None
            if game.get_type().dynamics == Dynamics.SIMULTANEOUS:
                game = pyspiel.convert_to_turn_based(game)
            self.games[key] = game
        return self.games[key]


class Table:
    """One game in progress: an OpenSpiel state, the chance to come, and
    what each seat was last told."""

    def __init__(self, bridge, variant, seed, setup):
        self.game = bridge.game(variant)
        self.told_as = bridge.told_as
        self.tensor = bridge.tensor if variant[TENSOR] else None
        self.type = bridge.type
        self.scale = variant[SCALE]
        self.seats = self.game.num_players()
        self.state = self.game.new_initial_state()
        self.rng = None
        self.setup = None
        self.drawn = 0  # chance nodes passed
        if setup is not None:
            chance = setup.get("chance") if isinstance(setup, dict) else None
            if not (isinstance(chance, list) and all(type(a) is int for a in chance)):
                raise EngineError('a setup is {"chance": [action, ...]}, the chance actions in the order the '
                                  "chance nodes come")
            self.setup = chance
        elif type(seed) is int and 0 <= seed < 2**64:
            self.rng = random.Random(seed)
        else:
            raise EngineError(f"start needs a seed from 0 to 2^64 - 1 or a setup, not {json.dumps(seed)}")
        self.told = [self.seen(seat) for seat in range(self.seats)]
        self.start_events = self.chance()

    def seen(self, seat):
        """What `seat` knows now: its information state (or observation) string."""
        if self.told_as == "information_state":
            return self.state.information_state_string(seat)
        return self.state.observation_string(seat)

    def to_act(self):
        """The seat that chooses now, or None when the game is over."""
        return None if self.state.is_terminal() else self.state.current_player()

    def choices(self):
        """The legal choices of the seat to act, in OpenSpiel's order."""
        seat = self.to_act()
        if seat is None:
            return []
        return [{"action": a, "name": self.state.action_to_string(seat, a)} for a in self.state.legal_actions()]

    def observe(self, seat):
        """What `seat` observes now (with `tensor`, OpenSpiel's tensor of it too)."""
        state = {"player": seat, self.told_as: self.seen(seat)}
        if self.tensor is not None:
            state[self.tensor] = list(getattr(self.state, self.tensor)(seat))
        return state

    def returns(self):
        """Each seat's OpenSpiel return now."""
        return self.state.returns()

    def scores(self):
        """Each seat's score now: its return times scale, rounded."""
        return [to_int(r * self.scale) for r in self.returns()]

    def outcome(self):
        """None while the game goes on, then each seat's place by its return."""
        if not self.state.is_terminal():
            return None
        returns = self.returns()
        return {"reason": "end", "ranks": [sum(other > mine for other in returns) for mine in returns]}

    def apply(self, seat, action):
        """Applies `action` (of `seat`, or of chance when `seat` is None): the event, with each seat's view."""
        actor = pyspiel.PlayerId.CHANCE if seat is None else seat
        name = self.state.action_to_string(actor, action)
        self.state.apply_action(action)
        if seat is None:
            event = {"type": "chance", "action": action, "name": name}
        else:
            event = {"type": "act", "seat": seat, "action": action, "name": name}
        views = []
        for viewer in range(self.seats):
            now = self.seen(viewer)
            changed, self.told[viewer] = now != self.told[viewer], now
            if viewer == seat:
                views.append({**event, self.told_as: now})
            else:
                views.append({"type": "seen", self.told_as: now} if changed else None)
        return {"event": event, "views": views}

    def chance(self):
        """Plays every chance node from here to the next decision or the end: the events."""
        events = []
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            if self.setup is None:
                action = draw(self.rng.random(), outcomes)
            elif self.drawn < len(self.setup):
                action = self.setup[self.drawn]
                legal = [a for a, p in outcomes if p > 0]
                if action not in legal:
                    raise EngineError(f"setup chance action {self.drawn} is {action}, which chance node "
                                      f"{self.drawn} cannot give: it gives {legal}")
            else:
                raise EngineError(f"the setup's {len(self.setup)} chance actions ran out: the game reached "
                                  f"chance node {self.drawn}")
            self.drawn += 1
            events.append(self.apply(None, action))
        return events

    def play(self, index):
        """The seat to act plays choice `index`: the events, its move first.
        Refused, changing nothing, if `index` is not a legal choice."""
        if self.state.is_terminal():
            raise EngineError("the game is over")
        legal = self.state.legal_actions()
        if not (type(index) is int and 0 <= index < len(legal)):
            raise EngineError(f"choice {json.dumps(index)} is not legal: there are {len(legal)}")
        saved = (self.state.clone(), self.rng.getstate() if self.rng else None, self.drawn, list(self.told))
        try:
            return [self.apply(self.to_act(), legal[index])] + self.chance()
        except EngineError:
            self.state, rng, self.drawn, self.told = saved
            if rng is not None:
                self.rng.setstate(rng)
            raise

    def find(self, move):
        """The index of the choice a move names ({"action": A}), and why not if none."""
        action = move.get("action") if isinstance(move, dict) else None
        if type(action) is not int:
            return None, 'a move is {"action": A}, A an OpenSpiel action number'
        if self.state.is_terminal():
            return None, "the game is over"
        choices = self.choices()
        actions = [choice["action"] for choice in choices]
        if action not in actions:
            return None, f"action {action} is not legal now: the legal actions are {actions}"
        index = actions.index(action)
        if "name" in move and move["name"] != choices[index]["name"]:
            return None, f"action {action} is {json.dumps(choices[index]['name'])}, not {json.dumps(move['name'])}"
        return index, None

    def forfeit(self, faulted):
        """The final scores if the `faulted` seats forfeit now: each of them
        gets the game's least return; in a zero- or constant-sum game the
        others share what is left of the sum, else each gets the most."""
        faulted = set(faulted)
        low = to_int(self.game.min_utility() * self.scale)
        others = [seat for seat in range(self.seats) if seat not in faulted]
        if not others:
            return [low] * self.seats
        if self.type.utility in (Utility.ZERO_SUM, Utility.CONSTANT_SUM):
            total = to_int(self.game.utility_sum() * self.scale)
            shares = split(total - low * len(faulted), others)
        else:
            shares = {seat: to_int(self.game.max_utility() * self.scale) for seat in others}
        return [low if seat in faulted else shares[seat] for seat in range(self.seats)]


def loadable(name, parameters):
    """`parameters` less those OpenSpiel's own loader refuses: some games
    report a parameter they do not take (liars_dice_ir's rollout_length)."""
    while True:
        try:
            pyspiel.load_game(name, parameters)
            return parameters
        except pyspiel.SpielError as error:
            unknown = re.match(r"Unknown parameter '([^']+)'", str(error))
            if not unknown or unknown.group(1) not in parameters:
                raise EngineError(f"OpenSpiel cannot load {name} with the parameters it reports as its own "
                                  f"({json.dumps(parameters)}): {error}") from None
            del parameters[unknown.group(1)]


def playable(name, game):
    """Refuses a game whose decisions the bridge cannot list: it walks from
    the start (chance drawn as from seed 0) to the first decision and asks
    OpenSpiel for its legal actions (crossword has only action structs)."""
    state, rng = game.new_initial_state(), random.Random(0)
    try:
        while state.is_chance_node():
            state.apply_action(draw(rng.random(), state.chance_outcomes()))
        if not state.is_terminal():
            state.legal_actions()
    except pyspiel.SpielError as error:
        raise EngineError(f"{name}'s moves are not actions the bridge can list as choices: {error}") from None


def draw(r, outcomes):
    """The outcome that `r` (uniform in [0, 1)) picks: the first whose
    cumulative probability, summed in OpenSpiel's order, exceeds `r` (the
    last outcome if rounding leaves `r` beyond them all)."""
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if r < total:
            return action
    return outcomes[-1][0]


class Session:
    """The requests of one engine process: each method answers one type of request."""

    def __init__(self, bridge):
        self.bridge = bridge
        self.table = None

    def answer(self, line):
        """The answer to one request line (None for bye: the end)."""
        try:
            request = json.loads(line)
        except ValueError as error:
            raise EngineError(f"a request is one JSON object on a line: {error}") from None
        kind = request.get("type") if isinstance(request, dict) else None
        if kind == "bye":
            return None
        if kind not in ("hello", "variant", "start", "play", "find", "observe", "forfeit"):
            raise EngineError(f"unknown request type {json.dumps(kind)}")
        if kind in ("play", "find", "observe", "forfeit") and self.table is None:
            raise EngineError(f"there is no game to {kind} in: send start first")
        return getattr(self, kind)(request)

    def hello(self, _request):
        return self.bridge.engine()

    def variant(self, request):
        settings = request.get("settings", [])
        if not (isinstance(settings, list) and all(isinstance(s, list) and len(s) == 2 for s in settings)):
            raise EngineError("settings are a list of [key, value] pairs")
        variant = self.bridge.resolve(settings)
        seats = self.bridge.game(variant).num_players()
        return {"type": "variant", "variant": variant, "seats": seats, "teams": [[seat] for seat in range(seats)]}

    def start(self, request):
        variant = request.get("variant")
        if not isinstance(variant, dict):
            raise EngineError("start needs the variant, as the answer to variant gave it")
        variant = self.bridge.resolve(list(variant.items()))
        self.table = Table(self.bridge, variant, request.get("seed"), request.get("setup"))
        return self.step(self.table.start_events)

    def play(self, request):
        return self.step(self.table.play(request.get("index")))

    def step(self, events):
        """The step after `events`."""
        table, seat = self.table, self.table.to_act()
        return {"type": "step", "events": events, "to_act": seat, "choices": table.choices(),
                "state": None if seat is None else table.observe(seat),
                "scores": table.scores(), "outcome": table.outcome()}

    def find(self, request):
        index, why = self.table.find(request.get("move"))
        return {"type": "found", "index": index, **({"why": why} if index is None else {})}

    def seat(self, value, what):
        """`value` as a seat of the game, or an error naming `what` it was."""
        if not (type(value) is int and 0 <= value < self.table.seats):
            raise EngineError(f"{what} {json.dumps(value)} is no seat: seats are 0 to {self.table.seats - 1}")
        return value

    def observe(self, request):
        return {"type": "observe", "state": self.table.observe(self.seat(request.get("seat"), "seat"))}

    def forfeit(self, request):
        faulted = request.get("faulted")
        if not isinstance(faulted, list):
            raise EngineError(f"faulted is a list of seats, not {json.dumps(faulted)}")
        return {"type": "scores", "scores": self.table.forfeit([self.seat(s, "faulted seat") for s in faulted])}


def serve(bridge, lines=sys.stdin):
    """Answers each request line with one line, until `bye` or the end of input."""
    session = Session(bridge)
    for line in lines:
        if not line.strip():
            continue
        try:
            answer = session.answer(line)
        except EngineError as error:
            answer = {"type": "error", "message": str(error)}
        except Exception as error:  # noqa: BLE001 - an error answer, not a traceback, names what failed
            answer = {"type": "error", "message": f"OpenSpiel failed on this request: {type(error).__name__}: {error}"}
        if answer is None:
            return
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def main(args):
    """Serves the game the command line names."""
    if len(args) != 1:
        sys.stderr.write("usage: bridge.py GAME (an OpenSpiel game's name, e.g. kuhn_poker; its parameters are "
                         "the variant settings)\n")
        return 2
    try:
        bridge = Bridge(args[0])
    except EngineError as error:
        sys.stderr.write(f"bridge.py: {error}\n")
        return 2
    serve(bridge)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""engine.py: Connect Four as an arena engine (Python 3, standard library only).

The arena starts this program and speaks the engine protocol with it
(engines/ENGINES.md): one JSON request per line on stdin, exactly one JSON
answer per line on stdout. Anything for humans goes to stderr.

The game: two seats take turns dropping a piece into a column of an upright
board (seat 0 plays X and moves first, seat 1 plays O); the piece falls to the
lowest empty row. A line of `connect` pieces of one mark, across, down or
diagonal, wins; a full board with no line is a draw. README.md beside this
file describes the messages.

To write an engine of your own, copy this file and change the class
`ConnectFour` (the rules); `serve` (the protocol) needs no change. Try it with
    arena check-engine "python3 engines/connect-four/engine.py"
"""
import json
import sys


class GameError(Exception):
    """A request the game refuses; the message is shown to the user as it is."""


def whole_number(key, value, low, high):
    """The setting `key` as an int from `low` to `high`, from a string of digits or an int."""
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not (isinstance(text, str) and text.isascii() and text.isdigit() and low <= int(text) <= high):
        raise GameError(f"{key} takes a whole number from {low} to {high}, not {json.dumps(value)}")
    return int(text)


def public(event, seats):
    """An event every seat is told in full (a game of perfect information has no other)."""
    return {"event": event, "views": [event] * seats}


class ConnectFour:
    """One game of Connect Four: the rules, and nothing of the protocol.

    Change this class for another game; `serve` calls only what is here:
    SEATS, TEAMS, engine, resolve, the constructor, to_act, choices, state,
    scores, outcome, private, play, find and forfeit.
    """

    # Change all of this class for your game, starting here: who the engine is,
    # and what a score counts (rank_by_mean True for a payoff game, like poker).
    NAME = "connect-four"
    VERSION = "1.0"
    SCORING = {"unit": "points", "rank_by_mean": False}
    # (key, lowest, highest, default, help): the settings of a variant.
    OPTIONS = [
        ("rows", 4, 10, 6, "rows of the board"),
        ("columns", 4, 10, 7, "columns of the board"),
        ("connect", 3, 6, 4, "how many in a line win"),
    ]
    SEATS = 2
    TEAMS = [[0], [1]]
    MARKS = "XO"  # seat 0 plays X, seat 1 plays O

    @classmethod
    def engine(cls):
        """The answer to hello."""
        options = [{"key": key, "values": f"{low} to {high}", "default": str(default), "help": help}
                   for key, low, high, default, help in cls.OPTIONS]
        return {"type": "engine", "name": cls.NAME, "version": cls.VERSION, "protocol": 1,
                "scoring": cls.SCORING, "options": options}

    @classmethod
    def resolve(cls, settings):
        """The variant that `settings` ([key, value] pairs, later ones win) resolve to."""
        variant = {key: default for key, _, _, default, _ in cls.OPTIONS}
        ranges = {key: (low, high) for key, low, high, _, _ in cls.OPTIONS}
        for key, value in settings:
            if key not in ranges:
                known = ", ".join(ranges)
                raise GameError(f"{cls.NAME} has no setting {json.dumps(key)}: its settings are {known}")
            variant[key] = whole_number(key, value, *ranges[key])
        if variant["connect"] > max(variant["rows"], variant["columns"]):
            raise GameError(f"connect {variant['connect']} does not fit a board of {variant['rows']} rows "
                            f"and {variant['columns']} columns: connect takes at most the larger of the two")
        return variant

    def __init__(self, variant, seed, setup):
        """A new game. There is no chance in Connect Four, so `seed` is unused;
        a game with chance would draw it all from a generator seeded with it,
        e.g. random.Random(seed), never from the clock or os.urandom.
        `setup` is None or an opening {"moves": [column, ...]} already played."""
        self.rows, self.columns, self.connect = variant["rows"], variant["columns"], variant["connect"]
        self.board = [["."] * self.columns for _ in range(self.rows)]  # top row first
        self.moves = []  # the columns played, in order
        self.winner = None
        self.ended = None  # the reason the game ended: "connect" or "full"
        self.start_events = []  # what happened before the first step (here, the setup)
        if setup is not None:
            moves = setup.get("moves") if isinstance(setup, dict) else None
            if not isinstance(moves, list):
                raise GameError('a setup is {"moves": [column, ...]}, the columns already played')
            for number, column in enumerate(moves, 1):
                if type(column) is not int:
                    raise GameError(f"setup move {number} is {json.dumps(column)}, not a column number")
                index, why = self.find({"column": column})
                if index is None:
                    raise GameError(f"setup move {number} cannot be played: {why}")
                self.start_events += self.play(index)
            if self.ended:
                raise GameError("the setup ends the game: an opening must leave a move to play")

    def to_act(self):
        """The seat that chooses now, or None when the game is over."""
        return None if self.ended else len(self.moves) % 2

    def choices(self):
        """The legal choices of the seat to act, in a fixed order."""
        if self.ended:
            return []
        return [{"column": c} for c in range(self.columns) if self.board[0][c] == "."]

    def state(self, seat):
        """What `seat` observes now: everything, as nothing is hidden."""
        return {
            "board": ["".join(row) for row in self.board],
            "you": seat,
            "to_move": self.to_act(),
            "last": self.moves[-1] if self.moves else None,
        }

    def scores(self):
        """Each seat's score now: 1 for the winner, -1 for the loser, else 0."""
        if self.winner is None:
            return [0, 0]
        return [1 if seat == self.winner else -1 for seat in range(self.SEATS)]

    def outcome(self):
        """None while the game goes on, then why it ended and each seat's place."""
        if not self.ended:
            return None
        ranks = [0, 0] if self.winner is None else [0 if s == self.winner else 1 for s in range(self.SEATS)]
        return {"reason": self.ended, "ranks": ranks}

    def private(self):
        """Each seat's private information, for check-engine: none in Connect Four.
        A game with hidden cards lists each seat's cards here, e.g. [["Kh"], ["Qs"]]."""
        return [[] for _ in range(self.SEATS)]

    def play(self, index):
        """The seat to act plays choice `index`; the events it causes, the move first.
        Raises GameError, changing nothing, if `index` is not a legal choice."""
        choices = self.choices()
        if self.ended:
            raise GameError("the game is over")
        if not (isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(choices)):
            raise GameError(f"choice {json.dumps(index)} is not legal: there are {len(choices)}")
        seat, column = self.to_act(), choices[index]["column"]
        row = max(r for r in range(self.rows) if self.board[r][column] == ".")
        self.board[row][column] = self.MARKS[seat]
        self.moves.append(column)
        events = [public({"type": "drop", "seat": seat, "column": column, "row": row}, self.SEATS)]
        if self.connects(row, column):
            self.ended, self.winner = "connect", seat
        elif len(self.moves) == self.rows * self.columns:
            self.ended = "full"
        if self.ended:
            events.append(public({"type": "end", "reason": self.ended, "winner": self.winner}, self.SEATS))
        return events

    def connects(self, row, column):
        """Whether the piece at (row, column) makes a line of `connect` of its mark."""
        mark = self.board[row][column]
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while 0 <= r < self.rows and 0 <= c < self.columns and self.board[r][c] == mark:
                    count, r, c = count + 1, r + sign * dr, c + sign * dc
            if count >= self.connect:
                return True
        return False

    def find(self, move):
        """The index of the choice a move names by value ({"column": C}), and why not if none."""
        column = move.get("column") if isinstance(move, dict) else None
        if not isinstance(column, int) or isinstance(column, bool):
            return None, 'a move is {"column": C}'
        if self.ended:
            return None, "the game is over"
        if not 0 <= column < self.columns:
            return None, f"column {column} does not exist (0 to {self.columns - 1})"
        columns = [choice["column"] for choice in self.choices()]
        if column not in columns:
            return None, f"column {column} is full"
        return columns.index(column), None

    def forfeit(self, faulted):
        """Each seat's final score if the `faulted` seats forfeit now."""
        return [-1 if seat in faulted else 1 for seat in range(self.SEATS)]


def is_seat(value, seats):
    """Whether `value` is a seat of a game of `seats` seats."""
    return type(value) is int and 0 <= value < seats


def serve(game_class, lines=sys.stdin):
    """Answer each request line with one line, until `bye` or the end of input.

    The protocol, the same for every game: an author need not change it."""
    game = None
    for line in lines:
        if not line.strip():
            continue
        try:
            try:
                request = json.loads(line)
            except ValueError as error:
                raise GameError(f"a request is one JSON object on a line: {error}") from None
            kind = request.get("type") if isinstance(request, dict) else None
            if kind == "bye":
                return
            if kind in ("play", "find", "observe", "forfeit") and game is None:
                raise GameError(f"there is no game to {kind} in: send start first")
            if kind == "hello":
                answer = game_class.engine()
            elif kind == "variant":
                settings = request.get("settings", [])
                if not (isinstance(settings, list) and all(isinstance(s, list) and len(s) == 2 for s in settings)):
                    raise GameError("settings are a list of [key, value] pairs")
                variant = game_class.resolve(settings)
                answer = {"type": "variant", "variant": variant, "seats": game_class.SEATS, "teams": game_class.TEAMS}
            elif kind == "start":
                variant = request.get("variant")
                if not isinstance(variant, dict):
                    raise GameError("start needs the variant, as the answer to variant gave it")
                new = game_class(game_class.resolve(list(variant.items())), request.get("seed"), request.get("setup"))
                game, events = new, new.start_events
            elif kind == "play":
                events = game.play(request.get("index"))
            elif kind == "find":
                index, why = game.find(request.get("move"))
                answer = {"type": "found", "index": index, **({"why": why} if index is None else {})}
            elif kind == "observe":
                seat = request.get("seat")
                if not is_seat(seat, game_class.SEATS):
                    raise GameError(f"seat {json.dumps(seat)} does not exist: seats are 0 to {game_class.SEATS - 1}")
                answer = {"type": "observe", "state": game.state(seat)}
            elif kind == "forfeit":
                faulted = request.get("faulted")
                if not (isinstance(faulted, list) and all(is_seat(seat, game_class.SEATS) for seat in faulted)):
                    raise GameError(f"faulted is a list of seats, 0 to {game_class.SEATS - 1}, not {json.dumps(faulted)}")
                answer = {"type": "scores", "scores": game.forfeit(faulted)}
            else:
                raise GameError(f"unknown request type {json.dumps(kind)}")
            if kind in ("start", "play"):
                seat = game.to_act()
                answer = {
                    "type": "step", "events": events, "to_act": seat, "choices": game.choices(),
                    "state": None if seat is None else game.state(seat),
                    "scores": game.scores(), "outcome": game.outcome(), "private": game.private(),
                }
        except GameError as error:
            answer = {"type": "error", "message": str(error)}
        sys.stdout.write(json.dumps(answer, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(ConnectFour)

"""starter.py: the starter engine, engines/connect-four/engine.py, as a module for the engines here.

The engines in this folder are for the tests of `arena check-engine`: each
but hidden_card.py and liars_dice.py (played right) breaks one rule of
engines/ENGINES.md. They import the starter's game and protocol loop from
here and change one thing.
"""
import importlib.util
import json
import pathlib
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the source tree
_PATH = pathlib.Path(__file__).resolve().parents[2] / "engines" / "connect-four" / "engine.py"
_SPEC = importlib.util.spec_from_file_location("engine", _PATH)
engine = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(engine)


def request_type(line):
    """The type of the request on `line`, or None if it is not a JSON object."""
    try:
        request = json.loads(line)
    except ValueError:
        return None
    return request.get("type") if isinstance(request, dict) else None

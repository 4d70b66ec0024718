#!/usr/bin/env python3
# Says in `ready` that it plays any seat, but plays only the seat `hello`
# gave it: a game_start for another seat makes it exit (status 1).
import json
import sys

from botlib import run

seat = None


def on_line(line):
    global seat
    message = json.loads(line) if line.strip() else {}
    if message.get("type") == "hello":
        seat = message["seat"]
    elif message.get("type") == "game_start" and message["seat"] != seat:
        sys.stderr.write(f"one_seat: I play seat {seat}, not {message['seat']}\n")
        sys.exit(1)


run(on_line=on_line, ready={"any_seat": True})

#!/usr/bin/env python3
"""connect.py: plays a bot's `choose` function in a running arena over the
network (Python 3, standard library only).

The arena listens (`--listen`) for a bot given as NAME=listen, and prints
its address and the bot's token. This client opens a connection for each
bot process the arena would have started (one per seat and lane, several at
once), over TCP or WebSocket, and answers each turn with `choose`:

    target/release/arena match --listen 127.0.0.1:9000 --bot me=listen --bot greedy=target/release/greedy-bot
    python3 sample-bots/python/connect.py 127.0.0.1:9000 me TOKEN

In your own code, a few lines:

    import connect
    def choose(state, legal):
        return 0                      # the index in `legal` of the move to play
    connect.play(choose, "127.0.0.1:9000", "me", "TOKEN")

Options: --ws (WebSocket instead of TCP), --connections N (connections kept
open at once, default 4), --bot-file FILE (a Python file defining
choose(state, legal); default: greedy.py beside this file), --token-file FILE.
"""
import argparse
import base64
import importlib.util
import json
import os
import socket
import struct
import sys
import threading


class Refused(Exception):
    """The arena refused the connection (a wrong bot name or token)."""


class Lines:
    """One bot session over TCP: the auth line, then one JSON object per line."""

    def __init__(self, host, port, bot, token):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = self.sock.makefile("rb")
        self.send({"type": "auth", "bot": bot, "token": token})

    def send(self, message):
        self.sock.sendall(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def receive(self):
        line = self.reader.readline()
        return json.loads(line) if line.strip() else None


class WebSocket:
    """One bot session over WebSocket: ws://HOST:PORT/BOT?token=TOKEN, one text message a line."""

    def __init__(self, host, port, bot, token):
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.reader = self.sock.makefile("rb")
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /{bot}?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        status = self.reader.readline().decode(errors="replace")
        headers = []
        while True:
            line = self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            headers.append(line)
        if " 101 " not in status:
            raise Refused(status.strip() + ": " + self.reader.read(200).decode(errors="replace"))

    def send(self, message):
        self.frame(0x1, json.dumps(message, separators=(",", ":")).encode())

    def frame(self, opcode, payload):
        # A client masks what it sends (RFC 6455, section 5.3).
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 1 << 16:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive(self):
        message = b""
        while True:
            head = self.reader.read(2)
            if len(head) < 2:
                return None
            fin, opcode, length = head[0] & 0x80, head[0] & 0x0F, head[1] & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", self.reader.read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", self.reader.read(8))
            payload = self.reader.read(length)
            if opcode == 0x8:  # close
                return None
            if opcode == 0x9:  # ping
                self.frame(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if fin:
                    return json.loads(message)


def session(connection, choose, name):
    """Plays the games of one connection until `bye` or its end; raises Refused if refused."""
    while True:
        message = connection.receive()
        if message is None:
            return
        kind = message.get("type")
        if kind == "refused":
            raise Refused(message.get("reason"))
        if kind == "hello":
            connection.send({"type": "ready", "name": name, "protocol": 1})
        elif kind == "turn":
            index = choose(message["state"], message["legal"])
            connection.send({"type": "move", "id": message["id"], "index": index})
        elif kind == "bye":
            return


def play(choose, address, bot, token, websocket=False, connections=4, name=None):
    """Plays `choose` as bot `bot` of the arena at `address` ("HOST:PORT"), keeping
    `connections` connections open at once, until the arena stops listening."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"{address!r} is not HOST:PORT (e.g. 127.0.0.1:9000)")
    kind = WebSocket if websocket else Lines
    done = threading.Event()

    def worker():
        while not done.is_set():
            try:
                session(kind(host, int(port), bot, token), choose, name or bot)
            except Refused as refused:
                print(f"connect.py: refused: {refused}", file=sys.stderr)
                done.set()
            except OSError:
                done.set()  # the arena is gone (its run ended)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("address", help="the arena's --listen address, HOST:PORT")
    parser.add_argument("bot", help="the bot's name in the run (given there as NAME=listen)")
    parser.add_argument("token", nargs="?", help="the bot's token, as the arena printed it")
    parser.add_argument("--token-file", help="read the token from this file instead")
    parser.add_argument("--ws", action="store_true", help="connect over WebSocket instead of TCP")
    parser.add_argument("--connections", type=int, default=4, help="connections open at once (default 4)")
    parser.add_argument("--bot-file", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "greedy.py"),
                        help="a Python file defining choose(state, legal) (default: greedy.py)")
    args = parser.parse_args()
    token = args.token
    if args.token_file:
        with open(args.token_file) as file:
            token = file.readline().strip()
    if not token:
        parser.error("give the token, or --token-file")
    spec = importlib.util.spec_from_file_location("bot", args.bot_file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        play(module.choose, args.address, args.bot, token, args.ws, args.connections)
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()

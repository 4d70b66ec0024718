#!/usr/bin/env python3
"""A bot served over TCP: for each connection, runs COMMAND with the
connection as its stdin and stdout (a bot that "listens", for the arena to
dial). Prints the port it listens on, then serves until killed.

    tcp_server.py [--no-follow] PORT COMMAND [ARG...]     (PORT 0: any free port)

On the arena's own machine (a connection from a loopback address), each
bot it starts runs on the CPU the arena plays that connection's games on,
as the arena pins the bots it starts itself (see docs/matches.md, `--cpus-per-game`):
the CPU that received the connection's first message (`hello`), which on
loopback is the one that sent it (SO_INCOMING_CPU). A game's messages then
pass between processes on one core instead of waking another, which on a
virtual machine costs several times more. --no-follow leaves the bots
where the kernel puts them.
"""
import ipaddress
import os
import select
import socket
import subprocess
import sys
import threading

# How long to wait for a connection's first message before starting its
# bot where the kernel puts it, in seconds.
FIRST_MESSAGE = 30.0


def arena_cpu(conn):
    """The CPU the arena sends this loopback connection's messages from, once its first arrived; else None."""
    peer = ipaddress.ip_address(conn.getpeername()[0])
    incoming = getattr(socket, "SO_INCOMING_CPU", None)
    if not peer.is_loopback or incoming is None:
        return None
    readable, _, _ = select.select([conn], [], [], FIRST_MESSAGE)
    if not readable:
        return None
    cpu = conn.getsockopt(socket.SOL_SOCKET, incoming)
    return cpu if cpu in os.sched_getaffinity(0) else None


def serve(conn, command, follow):
    """Starts `command` on `conn` (on the arena's CPU, if `follow`), then lets go of it."""
    cpu = arena_cpu(conn) if follow else None
    if cpu is not None:
        # This thread alone (Linux pins threads): the bot it starts inherits it.
        os.sched_setaffinity(0, {cpu})
    child = subprocess.Popen(command, stdin=conn.fileno(), stdout=conn.fileno())
    conn.close()
    child.wait()


def main():
    args = sys.argv[1:]
    follow = args[:1] != ["--no-follow"]
    if not follow:
        args = args[1:]
    port, command = int(args[0]), args[1:]
    server = socket.create_server(("127.0.0.1", port))
    print(server.getsockname()[1], flush=True)
    while True:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(conn, command, follow), daemon=True).start()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass

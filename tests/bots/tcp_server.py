#!/usr/bin/env python3
"""A bot served over TCP: for each connection, runs COMMAND with the
connection as its stdin and stdout (a bot that "listens", for the arena to
dial). Prints the port it listens on, then serves until killed.

    tcp_server.py PORT COMMAND [ARG...]     (PORT 0: any free port)
"""
import socket
import subprocess
import sys


def main():
    port, command = int(sys.argv[1]), sys.argv[2:]
    server = socket.create_server(("127.0.0.1", port))
    print(server.getsockname()[1], flush=True)
    children = []
    while True:
        conn, _ = server.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        children.append(subprocess.Popen(command, stdin=conn.fileno(), stdout=conn.fileno()))
        conn.close()
        children = [child for child in children if child.poll() is None]


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass

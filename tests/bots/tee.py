#!/usr/bin/env python3
# Runs the bot command given after the log directory, passing lines both ways, and logs them to DIR/<pid>.log ("> " arena to bot, "< " bot to arena).
import os
import subprocess
import sys

log = open(os.path.join(sys.argv[1], f"{os.getpid()}.log"), "w", encoding="utf-8")
bot = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def note(prefix, line):
    log.write(prefix + line.rstrip("\n") + "\n")
    log.flush()


for line in sys.stdin:
    note("> ", line)
    bot.stdin.write(line)
    bot.stdin.flush()
    kind = line.split('"type":"', 1)[-1].split('"', 1)[0]
    if kind in ("hello", "turn"):
        answer = bot.stdout.readline()
        note("< ", answer)
        sys.stdout.write(answer)
        sys.stdout.flush()
    elif kind == "bye":
        break
bot.stdin.close()
bot.wait()

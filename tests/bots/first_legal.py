#!/usr/bin/env python3
# A well-behaved bot: answers every turn with index 0, exits on bye or end of input.
from botlib import run

run()

#!/usr/bin/env python3
"""A bot that takes SECONDS to start: sleeps, then runs SCRIPT as its main.

Usage: python3 slow_start.py SECONDS SCRIPT [ARGS...]

It stands for a bot that loads a model or warms a virtual machine before it
answers hello; bench/lanes plays it to measure what starting processes costs.
"""
import runpy
import sys
import time

time.sleep(float(sys.argv[1]))
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")

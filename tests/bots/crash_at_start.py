#!/usr/bin/env python3
# Exits with status 3 before reading anything.
import sys

sys.exit(3)

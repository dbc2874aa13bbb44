#!/usr/bin/env python3
"""A test agent that plays its first legal move and writes every message it
receives to the file named by its argument, one per line."""
import json, sys

with open(sys.argv[1], "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        m = json.loads(line)
        if m["type"] == "observe":
            print(json.dumps({"move": m["moves"][0]}), flush=True)

#!/usr/bin/env python3
"""A test agent that plays its first legal move, then fails on purpose at its
N-th decision (counted per process): faulty_agent.py crash|illegal|garbage|timeout N."""
import json, sys, time

mode, at = sys.argv[1], int(sys.argv[2])
asked = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] != "observe":
        continue
    asked += 1
    if asked == at:
        if mode == "crash":
            print("faulty agent: crashing on purpose", file=sys.stderr)
            sys.exit(3)
        if mode == "illegal":
            print(json.dumps({"move": "999"}), flush=True)
            continue
        if mode == "garbage":
            print("{not json", flush=True)
            continue
        if mode == "timeout":
            time.sleep(30)
    print(json.dumps({"move": m["moves"][0]}), flush=True)

#!/usr/bin/env python3
"""Runs a seed 000-style X Nimmt! agent function under gdl (docs/AGENTS.md).

    gdl match games/xnimmt.game --players "exec:python3 examples/agents/seed000_adapter.py",search

The agent function is the assignment's: it takes percepts (my_hand, table),
cards as (number, points) tuples, and returns the number of a card in its
hand. Point it at your own with AGENT=my_agent (a module with `agent_function`).
"""
import importlib, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
agent_function = importlib.import_module(os.environ.get("AGENT", "lowest_card_agent")).agent_function

def points(card, K):  # the deck's bull heads, as the assignment scores them
    if card == K // 2: return 7
    return 5 if card % 7 == 0 else 3 if card % 5 == 0 else 2 if card % 3 == 0 else 1

for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        K = m["parameters"]["K"]
    elif m["type"] == "observe":
        view = m["view"]
        my_hand = [(c, points(c, K)) for c in view["hands"][m["seat"]]]
        table = [[(c, points(c, K)) for c in row] for row in view["rows"]]
        print(json.dumps({"move": str(agent_function((my_hand, table)))}), flush=True)

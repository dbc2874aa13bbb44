"""An `exec:` agent (docs/AGENTS.md) that plays a line given in a file, one
move a line: asked for a move after k plies of the game, it answers the
file's move k. Seated at every player, it makes `gdl trace` play exactly
that line, with the command's own bookkeeping (the repetition rule's
among it), for test_repetition.py to compare the module with.

    gdl trace GAME --players "exec:python3 line_agent.py LINE","exec:python3 line_agent.py LINE"
"""

import json
import sys

line = open(sys.argv[1]).read().splitlines()
played = 0
for text in sys.stdin:
    message = json.loads(text)
    if message["type"] == "start":
        played = 0
    elif message["type"] == "observe":
        # The plies since this program's last message, its own answer and
        # the others' moves (forced ones too) among them.
        played += len(message["plies"])
        print(json.dumps({"move": line[played]}), flush=True)

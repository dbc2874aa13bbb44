#!/bin/sh
# A gdl agent in the shell (docs/AGENTS.md): plays the first legal move.
# gdl writes one JSON object per line; a plain line with the move is a valid
# answer. `sed` picks the first string of the "moves" list.
while IFS= read -r line; do
    case "$line" in
    *'"type":"observe"'*)
        printf '%s\n' "$line" | sed 's/.*"moves":\["\([^"]*\)".*/\1/'
        ;;
    esac
done

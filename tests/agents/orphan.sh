#!/bin/sh
# A test agent that leaves a child behind: it starts `sleep 60`, which holds
# its standard output open, and writes the child's pid to the file $1; then
# with $2 = exit it exits at once with status 3, without answering, and
# with $2 = play it plays the first legal move until its input ends.
sleep 60 &
echo $! > "$1"
if [ "$2" = exit ]; then
    exit 3
fi
while IFS= read -r line; do
    case "$line" in
    *'"type":"observe"'*)
        printf '%s\n' "$line" | sed 's/.*"moves":\["\([^"]*\)".*/\1/'
        ;;
    esac
done

#!/usr/bin/env bash
# Wall and CPU time of the big exact solves and of a match, on 1 to 16
# threads (issue 26): the tables of docs/PERFORMANCE.md.
#
#   benches/scaling.sh target/release/gdl [THREADS...]
#
# Takes a release binary (no cargo here); THREADS defaults to 1 2 4 8 16.
# Prints one line per run: workload, threads, wall seconds, CPU seconds
# (user + system), and CPU / wall. Each solve's answer is checked against
# the one-thread run's, so that a faster wrong answer cannot pass unseen.
set -euo pipefail

if [[ $# -lt 1 || ! -x $1 ]]; then
    echo "usage: $0 PATH/TO/RELEASE/gdl [THREADS...]" >&2
    exit 2
fi
gdl=$1
shift
threads=("$@")
[[ ${#threads[@]} -gt 0 ]] || threads=(1 2 4 8 16)
games=$(cd "$(dirname "$0")/../games" && pwd)

echo "machine: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//') ($(nproc) cores online)"
echo "gdl:     $("$gdl" --version)"
printf '%-34s %7s %9s %9s %6s\n' workload threads wall_s cpu_s cpu/wall

# run NAME T CMD...: times CMD, prints the line; the answer lines go to $answer.
answer=""
run() {
    local name=$1 t=$2
    shift 2
    local out times
    out=$(mktemp)
    times=$( { TIMEFORMAT='%R %U %S'; time "$@" > "$out" 2>/dev/null; } 2>&1 )
    read -r wall user sys <<< "$times"
    local cpu
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    printf '%-34s %7s %9s %9s %6s\n' "$name" "$t" "$wall" "$cpu" \
        "$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", (w > 0 ? c / w : 0) }')"
    # What must not depend on the threads: the value, best moves and line.
    answer=$(grep -E '^(value|best moves|line) ' "$out" || true)
    rm -f "$out"
}

solve_at() {
    local name=$1
    shift
    local first=""
    for t in "${threads[@]}"; do
        run "$name" "$t" "$gdl" solve "$@" --threads "$t"
        if [[ -z $first ]]; then
            first=$answer
        elif [[ $answer != "$first" ]]; then
            echo "  DIFFERENT ANSWER with $t threads:" >&2
            echo "$answer" >&2
            exit 1
        fi
    done
}

solve_at "solve nimcala 12/12" "$games/nimcala.game" --pits 12 --tokens 12
solve_at "solve pig target 100" "$games/pig.game" --target 100
solve_at "solve nimcala 13/13" "$games/nimcala.game" --pits 13 --tokens 13

for t in "${threads[@]}"; do
    run "match xnimmt search:50,random 2000" "$t" \
        "$gdl" match "$games/xnimmt.game" --players search:50,random --games 2000 --seed 1 --threads "$t"
done

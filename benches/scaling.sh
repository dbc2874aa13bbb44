#!/usr/bin/env bash
# Wall and CPU time of the big exact solves and of a match, on 1 to 16
# threads (issue 26): the tables of docs/PERFORMANCE.md.
#
#   benches/scaling.sh target/release/gdl [THREADS...]
#
# Takes a release binary (no cargo here); THREADS defaults to 1 2 4 8 16.
# Prints one line per run: workload, threads, wall seconds, CPU seconds
# (user + system), CPU / wall, peak memory, positions stored and bytes of
# peak memory per position. BIG=0 leaves out Nimcala 13/13, and BIG_THREADS
# runs it on other thread counts (BIG_THREADS="1 16": two runs, not five).
# Each solve's answer is checked against
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
printf '%-34s %7s %9s %9s %8s %8s %12s %9s %12s\n' workload threads wall_s cpu_s cpu/wall peak_MB states B/state nodes

# peak CMD...: runs CMD, then prints its peak resident memory in MB (the
# high-water mark, read from /proc while it runs: bash has no getrusage).
peak() {
    "$@" &
    local pid=$! hwm=0 kb
    while kill -0 "$pid" 2>/dev/null; do
        kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        [[ -n $kb ]] && hwm=$kb
        sleep 0.05
    done
    wait "$pid"
    echo $((hwm / 1024)) >&3
}

# run NAME T CMD...: times CMD, prints the line; the answer lines go to $answer.
answer=""
run() {
    local name=$1 t=$2
    shift 2
    local out times mem
    out=$(mktemp)
    mem=$(mktemp)
    times=$( { TIMEFORMAT='%R %U %S'; time peak "$@" > "$out" 2>/dev/null 3>"$mem"; } 2>&1 )
    read -r wall user sys <<< "$times"
    local cpu states nodes
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    states=$(awk '$1 == "states" { gsub(",", "", $2); print $2 }' "$out")
    nodes=$(awk '$1 == "nodes" { gsub(",", "", $2); print $2 }' "$out")
    printf '%-34s %7s %9s %9s %8s %8s %12s %9s %12s\n' "$name" "$t" "$wall" "$cpu" \
        "$(awk -v c="$cpu" -v w="$wall" 'BEGIN { printf "%.2f", (w > 0 ? c / w : 0) }')" \
        "$(cat "$mem")" "${states:--}" \
        "$(awk -v m="$(cat "$mem")" -v s="${states:-0}" 'BEGIN { if (s > 0) printf "%.1f", m * 1048576 / s; else print "-" }')" \
        "${nodes:--}"
    # What must not depend on the threads: the value, best moves and line.
    answer=$(grep -E '^(value|best moves|line) ' "$out" || true)
    rm -f "$out" "$mem"
}

solve_at() {
    local name=$1
    shift
    local first=""
    for t in "${at[@]}"; do
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

at=("${threads[@]}")
solve_at "solve nimcala 12/12" "$games/nimcala.game" --pits 12 --tokens 12
solve_at "solve pig target 100" "$games/pig.game" --target 100
# About a minute a run on one thread: BIG=0 leaves it out.
if [[ ${BIG:-1} != 0 ]]; then
    read -r -a at <<< "${BIG_THREADS:-${threads[*]}}"
    solve_at "solve nimcala 13/13" "$games/nimcala.game" --pits 13 --tokens 13
fi

for t in "${threads[@]}"; do
    run "match xnimmt search:50,random 2000" "$t" \
        "$gdl" match "$games/xnimmt.game" --players search:50,random --games 2000 --seed 1 --threads "$t"
done

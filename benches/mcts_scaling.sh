#!/usr/bin/env bash
# Simulations per second of one MCTS search on 1, 2, 4, ... threads, from
# connect four 6x7's start, with only the gdl binary. PARALLEL=root (the
# default: independent trees, root statistics added up) or PARALLEL=tree
# (one tree shared by the threads, with virtual loss).
#
#   [PARALLEL=tree] benches/mcts_scaling.sh target/release/gdl [SIMULATIONS] [THREADS...]
#
# Default: 200000 simulations, threads 1 2 4 8 16 (those above the cores
# are still run: they show the oversubscription). Run from the repository's
# root. Each search is seeded, so a count of threads searches the same
# trees every run; only the clock varies.
set -euo pipefail

gdl=${1:?usage: $0 GDL_BINARY [SIMULATIONS] [THREADS...]}
sims=${2:-200000}
shift $(($# < 2 ? $# : 2))
counts=("$@")
if [ ${#counts[@]} -eq 0 ]; then
    counts=(1 2 4 8 16)
fi

parallel=${PARALLEL:-root}
echo "cores: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?'), $sims simulations, connect four 6x7 start, $parallel parallelism"
printf '%8s %12s %10s %12s\n' threads simulations seconds "sims/s"
for t in "${counts[@]}"; do
    json=$("$gdl" solve games/connect4.game --mcts "$sims" --threads "$t" --parallel "$parallel" --seed 1 --json)
    # The report's top-level fields (docs/json-schema/mcts.json).
    done_=$(printf '%s' "$json" | tr -d ' \n' | sed -E 's/.*"simulations":([0-9]+).*/\1/')
    secs=$(printf '%s' "$json" | tr -d ' \n' | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
    rate=$(awk -v n="$done_" -v s="$secs" 'BEGIN { printf "%.0f", n / s }')
    printf '%8s %12s %10.3f %12s\n' "$t" "$done_" "$secs" "$rate"
done

#!/usr/bin/env bash
# The strength checks of Monte Carlo tree search (docs/SOLVERS.md, issue 25),
# with only the gdl binary: each runs one `gdl match` and prints its table
# (win rates with 95% Wilson intervals, mean points with 95% intervals, and
# the time per decision). Games run in parallel on THREADS threads; each
# agent searches on one thread, so the seeded games are the same whatever
# THREADS is.
#
#   benches/mcts_strength.sh target/release/gdl [THREADS] [CHECK...]
#
# CHECK is any of: connect4 pig goofspiel goofspiel-ucb goofspiel-rm goofspiel-mixed
# goofspiel-others-random xnimmt-random xnimmt-random-seed2 xnimmt-greedy xnimmt-3
# xnimmt-random-10ms xnimmt-greedy-10ms (default: all). Run from the
# repository's root.
set -euo pipefail

gdl=${1:?usage: $0 GDL_BINARY [THREADS] [CHECK...]}
threads=${2:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
shift $(($# < 2 ? $# : 2))
checks=("$@")
if [ ${#checks[@]} -eq 0 ]; then
    checks=(connect4 pig goofspiel goofspiel-ucb goofspiel-rm goofspiel-mixed goofspiel-others-random
        xnimmt-random xnimmt-random-seed2 xnimmt-greedy xnimmt-3 xnimmt-random-10ms xnimmt-greedy-10ms)
fi

run() {
    local what=$1 need=$2
    shift 2
    echo "== $what (need: $need)"
    echo "\$ gdl $*"
    local started=$SECONDS
    "$gdl" "$@" --threads "$threads"
    echo "($((SECONDS - started)) s on $threads threads)"
    echo
}

for check in "${checks[@]}"; do
    case $check in
    connect4)
        run "connect four 6x7: mcts:20000 against alphabeta:4" "mcts wins at least 70%" \
            match games/connect4.game --players mcts:20000,alphabeta:4 --games 200 --seed 1 ;;
    pig)
        run "Pig, target 20: mcts against optimal (expectiminimax)" "mcts wins at least 45%" \
            match games/pig.game --target 20 --players mcts,optimal --games 2000 --seed 1 ;;
    goofspiel)
        run "Goofspiel 5 cards: mcts (the card games' defaults: own score, win bonus, others half at random) against random" "mcts wins at least 85%" \
            match games/goofspiel.game --cards 5 --players mcts,random --games 1000 --seed 1 ;;
    goofspiel-ucb)
        run "Goofspiel 5 cards: mcts (decoupled UCB, returns: UCT's defaults) against random" "for comparison" \
            match games/goofspiel.game --cards 5 --players mcts,random --games 1000 --seed 1 \
            --mcts-simultaneous ucb --mcts-backup returns ;;
    goofspiel-rm)
        run "Goofspiel 5 cards: mcts (regret matching) against random" "for comparison" \
            match games/goofspiel.game --cards 5 --players mcts,random --games 1000 --seed 1 \
            --mcts-simultaneous rm --mcts-backup returns ;;
    goofspiel-mixed)
        run "Goofspiel 5 cards: mcts (regret matching, move drawn from the average strategy) against random" "for comparison" \
            match games/goofspiel.game --cards 5 --players mcts,random --games 1000 --seed 1 \
            --mcts-simultaneous rm-mixed --mcts-backup returns ;;
    goofspiel-others-random)
        run "Goofspiel 5 cards: mcts (UCB1 against others drawn at random) against random" "for comparison" \
            match games/goofspiel.game --cards 5 --players mcts,random --games 1000 --seed 1 \
            --mcts-simultaneous others-random --mcts-backup returns ;;
    xnimmt-random-10ms)
        run "X Nimmt! defaults: mcts with 10 ms a move against random" "at most 3.6 points a game" \
            match games/xnimmt.game --players mcts,random --games 2000 --seed 1 --budget-ms 10 ;;
    xnimmt-greedy-10ms)
        run "X Nimmt! defaults: mcts with 10 ms a move against greedy" "mcts wins at least 75%" \
            match games/xnimmt.game --players mcts,greedy --games 2000 --seed 1 --budget-ms 10 ;;
    xnimmt-random)
        run "X Nimmt! defaults: mcts against random" "at most 3.6 points a game, at most 10 ms a decision" \
            match games/xnimmt.game --players mcts,random --games 2000 --seed 1 ;;
    xnimmt-random-seed2)
        run "X Nimmt! defaults: mcts against random, other games (seed 2: the card defaults were chosen on seed 1)" "at most 3.6 points a game" \
            match games/xnimmt.game --players mcts,random --games 2000 --seed 2 ;;
    xnimmt-greedy)
        run "X Nimmt! defaults: mcts against greedy" "mcts wins at least 75%" \
            match games/xnimmt.game --players mcts,greedy --games 2000 --seed 1 ;;
    xnimmt-3)
        run "X Nimmt! P=3, K=18: mcts against two greedy players" "mcts wins more than 50%" \
            match games/xnimmt.game --P 3 --K 18 --players mcts,greedy,greedy --games 2000 --seed 1 ;;
    *)
        echo "unknown check: $check" >&2
        exit 2 ;;
    esac
done

#!/usr/bin/env bash
# The demo a newcomer runs first (`make demo`): a threaded Python program
# run by build/tmpy (STM: its threads run in parallel), build/tmpy-gil and
# python3 (CPython 3.11), timed, once on independent work and once on shared
# data; a single-threaded Python program under
# tmpy-gil and python3; then the runtime heap under the GIL and one threaded
# C program run by both runtime builds.
set -euo pipefail
cd "$(dirname "$0")/.."
now() { date +%s.%N; }
threads=$(nproc)   # one thread per CPU
# Runs one threaded program under the three interpreters and compares their
# wall times (a run of build/tmpy that takes longer than 120 s is cut short).
three_way() {
    local prog=$1 what=$2 ts tg tp s
    echo "== $prog ($threads threads: $what) under build/tmpy (STM), build/tmpy-gil, python3 =="
    s=$(now); timeout 120 build/tmpy "$prog" "$threads" || echo "(build/tmpy: stopped after 120 s)"
    ts=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
    s=$(now); build/tmpy-gil "$prog" "$threads"; tg=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
    s=$(now); python3 "$prog" "$threads"; tp=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
    awk -v a="$ts" -v g="$tg" -v b="$tp" 'BEGIN { printf "wall time: tmpy %.2f s, tmpy-gil %.2f s, python3 %.2f s (tmpy is %.2fx tmpy-gil'"'"'s speed)\n\n", a, g, b, g / a }'
}
three_way bench/demo_threads.py "independent work"
three_way bench/parallel/dict_inserts_and_locked_counters.py \
    "shared data: their own keys into one dict, 16 counters under one threading.Lock; bench/results/parallel.txt has the rest"
echo "== bench/demo.py under build/tmpy-gil =="
s=$(now); build/tmpy-gil bench/demo.py; tm=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
echo
echo "== the same program under python3 =="
s=$(now); python3 bench/demo.py; tp=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
awk -v a="$tm" -v b="$tp" 'BEGIN { printf "\nwall time: tmpy-gil %.2f s, python3 %.2f s (tmpy-gil/python3 = %.2f)\n\n", a, b, a / b }'
build/bench/tmrt_demo
echo
echo "parallel demo: the same C program linked against the GIL runtime and the STM runtime ($threads threads, $(nproc) CPUs)"
# Each run's output is kept in a variable, printed, then read for its time
# (`tee /dev/stderr` would reopen a redirected stderr and truncate the file).
out=$(build/bench/parallel_demo "$threads" $((12000 / threads))); echo "$out"
gil=$(awk '/^seconds/ {print $2}' <<<"$out")
out=$(build/bench/parallel_demo-stm "$threads" $((12000 / threads))); echo "$out"
stm=$(awk '/^seconds/ {print $2}' <<<"$out")
awk -v g="$gil" -v s="$stm" 'BEGIN { printf "STM build vs GIL build: %.2fx the speed (%.2f s vs %.2f s)\n", g / s, s, g }'

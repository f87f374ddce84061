#!/usr/bin/env bash
# The demo a newcomer runs first (`make demo`): a Python program and a
# threaded Python program, each run by build/tmpy-gil and by python3 (CPython
# 3.11), timed; then the runtime heap under the GIL; then one threaded C
# program run by both runtime builds. (The threaded Python program under the
# STM build comes with the STM interpreter.)
set -euo pipefail
cd "$(dirname "$0")/.."
now() { date +%s.%N; }
echo "== bench/demo.py under build/tmpy-gil =="
s=$(now); build/tmpy-gil bench/demo.py; tm=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
echo
echo "== the same program under python3 =="
s=$(now); python3 bench/demo.py; tp=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
awk -v a="$tm" -v b="$tp" 'BEGIN { printf "\nwall time: tmpy-gil %.2f s, python3 %.2f s (tmpy-gil/python3 = %.2f)\n\n", a, b, a / b }'
echo "== bench/demo_threads.py (4 threads) under build/tmpy-gil, then python3 =="
s=$(now); build/tmpy-gil bench/demo_threads.py 4; tm=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
s=$(now); python3 bench/demo_threads.py 4; tp=$(awk -v s="$s" -v e="$(now)" 'BEGIN { print e - s }')
awk -v a="$tm" -v b="$tp" 'BEGIN { printf "wall time: tmpy-gil %.2f s, python3 %.2f s (tmpy-gil/python3 = %.2f)\n\n", a, b, a / b }'
build/bench/tmrt_demo
echo
threads=$(nproc)   # one thread per CPU; bench/results/parallel_demo.txt has other counts
echo "parallel demo: the same C program linked against the GIL runtime and the STM runtime ($threads threads, $(nproc) CPUs)"
gil=$(build/bench/parallel_demo "$threads" $((12000 / threads)) | tee /dev/stderr | awk '/^seconds/ {print $2}')
stm=$(build/bench/parallel_demo-stm "$threads" $((12000 / threads)) | tee /dev/stderr | awk '/^seconds/ {print $2}')
awk -v g="$gil" -v s="$stm" 'BEGIN { printf "STM build vs GIL build: %.2fx the speed (%.2f s vs %.2f s)\n", g / s, s, g }'

#!/usr/bin/env bash
# The demo a newcomer runs first (`make demo`): the runtime heap under the
# GIL, then one threaded program run by both runtime builds, with timings.
set -euo pipefail
cd "$(dirname "$0")/.."
build/bench/tmrt_demo
echo
threads=$(nproc)   # one thread per CPU; bench/results/parallel_demo.txt has other counts
echo "parallel demo: the same C program linked against the GIL runtime and the STM runtime ($threads threads, $(nproc) CPUs)"
gil=$(build/bench/parallel_demo "$threads" $((12000 / threads)) | tee /dev/stderr | awk '/^seconds/ {print $2}')
stm=$(build/bench/parallel_demo-stm "$threads" $((12000 / threads)) | tee /dev/stderr | awk '/^seconds/ {print $2}')
awk -v g="$gil" -v s="$stm" 'BEGIN { printf "STM build vs GIL build: %.2fx the speed (%.2f s vs %.2f s)\n", g / s, s, g }'

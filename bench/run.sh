#!/usr/bin/env bash
# Runs every benchmark binary in build/bench/ (build them first: `make bench`
# does both) and writes each one's output, under a header describing the
# machine, to bench/results/NAME.txt (NAME is the binary's name without a
# trailing "_bench": build/bench/alloc_bench -> bench/results/alloc.txt).
# The output is printed to stdout as well. Demos (tmrt_demo, *_demo) are not
# benchmarks and are skipped. TMPY_BENCH_SCALE and the runtime's TMPY_*
# variables are passed through and recorded in the header.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
bindir=build/bench
outdir=bench/results
mkdir -p "$outdir"

machine_header() {
    local cpu mem
    cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
    mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576; exit }' /proc/meminfo 2>/dev/null || true)
    echo "date:     $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "kernel:   $(uname -r)"
    echo "cpu:      ${cpu:-unknown}"
    echo "nproc:    $(nproc)"
    echo "memory:   ${mem:-unknown}"
    echo "compiler: $("${CC:-gcc}" --version 2>/dev/null | head -n 1 || echo unknown)"
    echo "commit:   $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    local vars
    vars=$(env | grep -E '^TMPY_' | sort | tr '\n' ' ' || true)
    echo "env:      ${vars:-(no TMPY_* variables set)}"
}

ran=0
for bin in "$bindir"/*; do
    [[ -f $bin && -x $bin ]] || continue
    name=$(basename "$bin")
    case $name in
        tmrt_demo | *_demo | *.o | *.d) continue ;;
    esac
    result="$outdir/${name%_bench}.txt"
    tmp="$result.tmp"
    {
        echo "== $name =="
        machine_header
        echo
    } >"$tmp"
    cat "$tmp"
    # Written to a temporary file first: a failing benchmark leaves the
    # previous results in place (and the script fails).
    if ! "./$bin" 2>&1 | tee -a "$tmp"; then
        rm -f "$tmp"
        echo "run.sh: $name failed" >&2
        exit 1
    fi
    mv "$tmp" "$result"
    echo "(written to $result)"
    echo
    ran=$((ran + 1))
done

if ((ran == 0)); then
    echo "run.sh: no benchmark binaries in $bindir (run 'make bench')" >&2
    exit 1
fi

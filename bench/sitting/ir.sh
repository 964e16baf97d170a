#!/usr/bin/env bash
# Instructions a run of one workload, for A/B comparisons that machine load
# does not move (docs/BENCHMARKS.md): the test binary BIN runs BENCH N times
# under callgrind with the collector off, and the inclusive instruction
# count of flow.(*Chart).Run (and of a narrative's Lines, when it runs) is
# divided by N (summed over the lines callgrind splits a function into).
# Needs valgrind. Usage: bench/sitting/ir.sh BIN BENCH N
# One processor (GOMAXPROCS=1): callgrind follows each OS thread's calls,
# and a benchmark goroutine that moved between threads left Run's count on
# the thread it left, so one measure in three read near zero.
# (build BIN with `go test -c -o BIN ./bench`; N 20 for loop10k, 10000 for
# decide10).
set -euo pipefail
bin=$1; bench=$2; n=$3; out=$(mktemp)
trap 'rm -f "$out"' EXIT
(cd "$(dirname "$0")/.." && GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out" \
  "$bin" -test.run '^$' -test.bench "^$bench\$" -test.benchtime "${n}x" >/dev/null 2>&1)
callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$out" 2>/dev/null |
  grep -E 'flow\.\(\*Chart\)\.Run \[|Narrative\)\.Lines \[' |
  awk -v n="$n" -v b="$bench" '{gsub(",", "", $1); f=$(NF-1); sub(/.*runbook\//, "", f); sum[f]+=$1} END {for (f in sum) printf "%s %s: %.0f instructions a run\n", b, f, sum[f]/n}'

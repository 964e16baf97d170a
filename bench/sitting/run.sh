#!/usr/bin/env bash
# One sitting against the reference (docs/BENCHMARKS.md): our six workloads
# and footprintjs's run.mjs alternating, 3 rounds, each half started only
# when the machine is idle (vmstat id >= 95), the load and steal noted.
# Needs node and npm (the reference), vmstat. Usage: bench/sitting/run.sh [OUT]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$(mktemp -d)}"; mkdir -p "$out"
ref="$(mktemp -d)"
cp -r "$root/../shared/anchor-bench/." "$ref"
# the one change to the reference's copy: CPU per op beside wall per op
(cd "$ref" && git apply "$root/bench/sitting/reference-cpu.diff" && npm install --silent --no-audit --no-fund)
(cd "$root" && go test -c -o "$out/bench.test" ./bench)
quiet() { for _ in $(seq 60); do [ "$(vmstat 1 2 | tail -1 | awk '{print $15}')" -ge 95 ] && return; done; echo "  (never idle)" | tee -a "$out/log"; }
note() { vmstat 1 2 | tail -1 | awk -v w="$1" '{print "  before " w ": us="$13" sy="$14" id="$15" st="$17}' | tee -a "$out/log"; }
for r in 1 2 3; do
  quiet
  echo "== round $r $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/log"
  note ours
  (cd "$root/bench" && "$out/bench.test" -test.run '^$' -test.benchmem -test.benchtime=0.5s -test.count=3 \
    -test.bench '^Benchmark(Linear500|Linear500Narrative|Decide10|Decide10Narrative|Fanout1000|Loop10k)$') > "$out/ours.$r"
  quiet
  note reference
  (cd "$ref" && node run.mjs) > "$out/ref.$r"
done
node "$root/bench/sitting/table.mjs" "$out"

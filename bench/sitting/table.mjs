// Prints a sitting's rounds (bench/sitting/run.sh): per workload the
// reference's and our median per-op wall and CPU time and their ratios.
import { readFileSync } from 'node:fs';
const dir = process.argv[2];
const names = { Linear500: 'linear500', Linear500Narrative: 'linear500-narrative', Decide10: 'decide10',
  Decide10Narrative: 'decide10-narrative', Fanout1000: 'fanout1000', Loop10k: 'loop10k' };
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const us = (ns) => (ns / 1e3).toFixed(ns < 1e5 ? 2 : 1);
for (const r of [1, 2, 3]) {
  const ours = {};
  for (const line of readFileSync(`${dir}/ours.${r}`, 'utf8').split('\n')) {
    const m = line.match(/^Benchmark(\w+)-\d+\s+\d+\s+([\d.]+) ns\/op\s+([\d.]+) cpu-ns\/op/);
    if (m && names[m[1]]) (ours[names[m[1]]] ??= []).push([+m[2], +m[3]]);
  }
  const ref = {};
  for (const line of readFileSync(`${dir}/ref.${r}`, 'utf8').split('\n')) {
    if (line.startsWith('{')) { const j = JSON.parse(line); ref[j.workload] = j; }
  }
  console.log(`round ${r}\n| workload | reference wall | ours wall | wall ratio | reference CPU | ours CPU | CPU ratio |\n|---|---:|---:|---:|---:|---:|---:|`);
  for (const w of Object.values(names)) {
    if (!ours[w] || !ref[w]) continue;
    const ow = median(ours[w].map((x) => x[0])), oc = median(ours[w].map((x) => x[1]));
    const rw = ref[w].ns_per_op, rc = ref[w].cpu_ns_per_op;
    console.log(`| ${w} | ${us(rw)} µs | ${us(ow)} µs | **${(rw / ow).toFixed(0)}×** | ${us(rc)} µs | ${us(oc)} µs | ${(rc / oc).toFixed(0)}× |`);
  }
}

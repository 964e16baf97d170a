// Package bench holds the standard workloads (../shared/anchor-bench
// WORKLOADS.md) as Go benchmarks with the same names, so our engine and the
// reference can be compared as a ratio in one sitting, plus the plain-Go
// floor and the growth benchmarks.
//
// Every workload does the reference's work: tracking on, one commit per
// stage, evidence recorded for every decision (kept compact where no
// recorder watches it, rebuilt when read), rows gathered in item order.
// The narrative record floor (FloorDecide10NarrativeRecord) builds only
// the record and text decide10-narrative's Result holds, in plain Go, and
// bounds what any engine building that record as it runs can reach; the
// workloads report CPU per op beside wall time (cpu-ns/op), and
// bench/sitting runs a sitting against the reference. TestLoopMemoryLinear and
// TestNoRecorderNoRecordingAllocs pin the memory and recording targets.
// docs/BENCHMARKS.md has the figures.
//
//	go test -run=NONE -bench=. -benchmem -count=10 ./bench/ > new.txt
//	benchstat old.txt new.txt
package bench

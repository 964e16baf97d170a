// Package bench holds the standard workloads (../shared/anchor-bench
// WORKLOADS.md) as Go benchmarks with the same names, so our engine and the
// reference can be compared as a ratio in one sitting, plus the plain-Go
// floor and the growth benchmarks.
//
// Every workload does the reference's work: tracking on, one commit per
// stage, evidence recorded for every decision, rows gathered in item order.
// The record floors (FloorDecide10Record, FloorLoop10kRecord) build only the
// record a workload's Result holds, in plain Go, and bound what any engine
// keeping that record can reach; TestLoopMemoryLinear and
// TestNoRecorderNoRecordingAllocs pin the memory and recording targets.
// docs/BENCHMARKS.md has the figures.
//
//	go test -run=NONE -bench=. -benchmem -count=10 ./bench/ > new.txt
//	benchstat old.txt new.txt
package bench

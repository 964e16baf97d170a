// Package bench holds the standard workloads (../shared/anchor-bench
// WORKLOADS.md) as Go benchmarks with the same names, so our engine and the
// reference can be compared as a ratio in one sitting, plus the plain-Go
// floor and the growth benchmarks.
//
// Every workload does the reference's work: tracking on, one commit per
// stage, evidence recorded for every decision, rows gathered in item order.
//
//	go test -run=NONE -bench=. -benchmem -count=6 ./bench/ | tee new.txt
//	benchstat old.txt new.txt
package bench

// Package recorder observes runs: it owns the events a run emits, the
// Recorder interface, the dispatch of events to recorders, and the built-in
// recorders (narrative, NDJSON stream, metrics, deferred delivery).
//
// It owns one rule, read in one order — a recorder watches, it never steers
// (Dispatcher is its one home):
//
//	no recorder attached         Dispatcher.Active() is false: the engine builds no event (0 allocations)
//	recorder panics in Record    detached for the rest of the run, reported in Problems
//	recorder has Err() ≠ nil     reported in Problems when the run flushes
//	recorder is slow             wrap it in Deferred: a bounded queue, drained off the hot path,
//	                             a full queue blocks the run (never drops), flushed before the run returns
//
// What it never does: it never changes the run (a recorder sees copies of
// events and has no way back into the engine), and it never walks the run
// again afterwards — everything a recorder knows it collected during the
// traversal, one event at a time. It reads nothing but the events; it
// imports decide and rules for the evidence types only.
//
// Events arrive in the same order on every run of the same chart and inputs
// (parallel branches are spliced in declaration order), so every built-in
// recorder is deterministic, timings aside:
//
//	events                                    narrative (one sentence a line)
//	StageStart{Path:"load#0", StageName:"Load"}  Stage Load (load#0) ran.
//	Read{Key:"used", Value:95}                     read used = 95
//	Decision{evidence, Branches:["at-risk"]}       Classify evaluated rule 1 "Nearly full": used 95 gt 90 ✓; and chose at-risk.
//
// What each built-in recorder costs:
//
//   - Narrative: Record keeps what it tells of the event in a compact,
//     nearly pointer-free form (no formatting; StageEnd, Commit and Next are
//     dropped at once); the Dispatcher hands it the event by pointer. Lines
//     builds every sentence into one buffer. Folded loop passes are dropped
//     as they fold, so a long loop costs the memory of its first passes, its
//     last pass and one summary.
//   - NDJSON: appends each event's JSON to a reused buffer and writes it to
//     a bufio.Writer; decision evidence goes through encoding/json.
//   - Metrics: a mutex and a map lookup for stage and decision events.
//   - Deferred: one channel send per event; the wrapped recorder's cost moves
//     to its own goroutine.
package recorder

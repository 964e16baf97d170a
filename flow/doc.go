// Package flow builds flowcharts of stages and runs them over a tracked,
// transactional scope, leaving a log from which every value can be traced
// to the stage that wrote it and the reads that stage made.
//
// It owns: charts (the builder, build-time validation, the static
// structure, Mermaid and DOT drawings), the scope (tracked reads, staged
// writes, one commit per stage execution), the executor (sequences,
// deciders, selectors, parallel branches, foreach fan-outs, subflows, loops,
// retries, timeouts, cancellation, pause and resume) and the commit log with
// its causal queries. It does not own rule evaluation (package rules and
// decide), what happens to events (package recorder), or anything a runbook
// adds on top: YAML, exec, verdicts, honesty (package runbook). It knows
// no key by name but the foreach position binding, IndexKey.
//
// The laws a run keeps:
//
//	one commit per stage execution    empty ones too; only net changes (and facts: SetFact, derived
//	                                  values: SetDerived, and every write of a stage that Gathered)
//	                                  are written
//	commit on error                   a failed stage's writes before it failed stay
//	retry                             a failed attempt's writes are discarded; each attempt is logged
//	parallel joins                    overlays merge in DECLARATION order, never completion order;
//	                                  two branches writing one key differently fail the run,
//	                                  except a gathered key (WithGather): rows appended to it are
//	                                  gathered in branch order, at joins and foreach ends alike,
//	                                  each write naming the branch commits they came from
//	determinism                       same chart and inputs → same log, events and state,
//	                                  however goroutines were scheduled (timings aside)
//	runtime paths                     [prefix/]stageId#n; a foreach branch is <id>~<index>,
//	                                  a parallel or select branch <id>~<branch>
//	bounds                            loops (default 1000 passes) and nesting (default 500)
//	                                  fail the run by name; foreach width and loop passes
//	                                  never count as nesting
//	cancellation                      stops the run between stages; a running stage has
//	                                  DefaultAbandonGrace (5s) to return, then is abandoned
//	                                  and its late writes never commit
//	no panic escapes                  a stage panic is that stage's failure, stack recorded
//	evidence                          every decision's evidence is in the log; a decider over
//	                                  filter rules that no recorder watches keeps it compact
//	                                  (the rule that matched, a pass mark per condition) and
//	                                  Commit.Evidence rebuilds it from the commit's reads —
//	                                  the same evidence, and the same JSON, as a run that
//	                                  built it as it went
//
// Example:
//
//	chart, err := flow.New("disk").
//		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
//			s.Set("used", 95)
//			return nil
//		}).
//		Decide("posture", []decide.Rule{
//			{When: nearlyFull, Then: "at-risk", Label: "Nearly full"},
//		}, decide.Default{Branch: "ok", Label: "No rule fired"},
//			[]flow.Branch{{Name: "at-risk"}, {Name: "ok"}},
//			flow.Name("Disk posture")).
//		Build()
//	res, err := chart.Run(ctx, flow.WithRecorders(recorder.NewNarrative()))
package flow

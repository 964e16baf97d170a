// Package rules is the one home of a rule's judgement: it compiles and runs
// expr-lang expressions, runs the filter operators, owns the value
// comparison law, and files the evidence of one predicate (Outcome).
//
// The comparison law (Compare orders, Equal equates; every caller asks
// them, never a copy):
//
//	numbers, any Go numeric type    ordered as numbers, exactly: int 2 == float64 2.0,
//	  and json.Number               uint64 above MaxInt64 and big int64s never rounded;
//	                                a float32 is the decimal it is written as
//	                                (float32(0.7) == 0.7, not 0.699999988…)
//	NaN                             equals nothing, has no order
//	strings                         ordered, byte by byte; two numbers written as
//	                                text ("100%", "90%", "12K") have no order
//	booleans                        equal or not; no order
//	null                            equal only to null (a missing key is not null)
//	lists, maps                     equal element by element / key by key; no order
//	anything else mixed             not comparable: a failed condition with a reason
//
// The filter operators (a filter's conditions are ANDed; every condition is
// evaluated and evidenced, none is skipped):
//
//	eq ne                 equal / not equal (Equal); null meets anything,
//	                      other mixed kinds fail with a reason
//	gt gte lt lte         ordered (Compare): two numbers or two strings (not two
//	                      numbers written as text: "100%" gte "90%" fails with a reason)
//	in notIn              value is / is not an element of the operand list (Equal);
//	                      a value of a kind no element has fails with a reason
//	contains              string holds the substring, or list holds the element
//	startsWith endsWith   string prefix / suffix
//	matches               string matches the regular expression (RE2, compiled once)
//	exists                true: key present and not null; false: absent or null
//
// A missing key (or a missing segment of a dotted path) fails every operator
// except `exists: false`. Under exists that is its answer; under any other
// operator the condition could not judge anything (ConditionEvidence.
// Unjudged), a rule error, as an expression reading a member its object
// lacks is one where its evaluation reads it (a guard before it that is
// false keeps it unread), and its reason says where the path stopped and what the
// object held: Kubernetes leaves status.availableReplicas out of a
// Deployment none of whose replicas is available, and `availableReplicas
// lt 1` was a plain no over it. A filter holds when all its conditions do,
// so one judged false answers it whatever the others could read
// (Outcome.Errored). A reserved af_ key's absence is no error.
//
//	@example  {used: 95, state: "degraded"}  ·  used gt 90 and state eq "degraded"
//	          → matched, conditions [used gt 90 (95) pass, state eq "degraded" pass]
//
// Expressions are compiled once (Compile) without a static environment and
// run in a sandbox where only expr's builtins can be called. Their evidence
// is the text, the result and every identifier and member path they read
// with its value (`volume.replicas = 2`), in source order. Inside an
// expression expr's own operators apply (`1 == 1.0` is true; `"1" < 2` is a
// run-time error, so the rule is a non-match with that error), save that
// equality and ordering follow the law above (exprequal.go): `x >= "90%"`
// over the text "100%" is an error, not false, and two numbers of any Go
// numeric type (a float32, a named `type Percent int`) are ordered as a
// filter orders them; a time.Duration beside a plain number stays expr's
// error.
//
// A predicate never panics and never stops a run: one that cannot be
// evaluated is a non-match whose Outcome carries the error.
//
// It reads nothing but its arguments and imports no engine package.
package rules

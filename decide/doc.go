// Package decide owns decide() and select(): a list of labelled rules, the
// default branch and its label, and the evidence of what was chosen and why.
//
// It owns one rule, in two forms:
//
//	decide   first match: rules tried in order, the first that matches wins;
//	         evidence lists the rules up to and including the match;
//	         none matched → the default branch. The default (branch and
//	         label) is on every decide evidence, matched or not.
//	select   all: every rule evaluated and on the evidence; chosen is the
//	         branches of every rule that matched, in rule order, each once;
//	         none selected is fine.
//
// A rule whose predicate errors is a non-match with the error on its
// evidence; the decision goes on to the next rule.
//
//	@example  rules [replicas < 1 → unprotected, used > 90 → at-risk], default declined
//	          {replicas: 2, used: 95}  → decide chose [at-risk], rules 0 (no) and 1 (yes)
//	          {replicas: 2, used: 10}  → decide chose [declined], fell through
//
// It imports rules and nothing else of the engine.
package decide

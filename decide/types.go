package decide

import "github.com/openrunbook/runbook/rules"

// Rule is one labelled rule: when its predicate matches, the flow takes Then.
// The label is the rule speaking for itself: evidence carries it, the
// narrative prints it, verdict meanings harvest it.
type Rule struct {
	When  rules.Predicate
	Then  string
	Label string
}

// Default is the branch a decider takes when no rule matches, and the label
// that says what that means. The label rides every decision of the decider,
// not only those that fell through.
type Default struct {
	Branch string `json:"branch"`
	Label  string `json:"label,omitempty"`
}

// Kind says whether evidence came from a first-match decision or a selection.
type Kind string

// The two kinds of evidence: first match, and all matches.
const (
	KindDecide Kind = "decide"
	KindSelect Kind = "select"
)

// Evidence is why a decider or selector chose what it chose.
type Evidence struct {
	Kind Kind `json:"kind"`
	// Chosen is one branch for decide, any number (rule order) for select.
	Chosen []string `json:"chosen"`
	// Default is the decider's declared default (decide only).
	Default *Default `json:"default,omitempty"`
	// Rules lists the rules evaluated: up to and including the match for
	// decide, all of them for select.
	Rules []RuleEvidence `json:"rules"`
}

// Number is the rule numbered as a person counts (1 for the first rule):
// the one way a rule's number is said anywhere a person reads it — text,
// explain, clauses. Index (0-based) is for code and the record's JSON.
func Number(index int) int { return index + 1 }

// RuleEvidence is one evaluated rule.
type RuleEvidence struct {
	Index int    `json:"index"`
	Label string `json:"label,omitempty"`
	Then  string `json:"then"`
	rules.Outcome
}

package rules

// Env is what a rule reads: a view of the scope. The flow engine passes a
// tracked view, so every key a rule looks at is on the record.
type Env interface {
	// Get returns the value stored at a top-level key and whether it exists.
	Get(key string) (any, bool)
}

// Predicate is one rule condition in either form (filter or expression).
// Eval never panics: a predicate that cannot be evaluated is a non-match
// whose Outcome carries the error.
type Predicate interface {
	Eval(env Env) Outcome
	// String is the predicate's source as the author wrote it (the expression
	// text, or the filter in a canonical `key op expected` form).
	String() string
}

// Valuer computes a value from the scope: an expression, or a key reference.
// Used by `set:`, verdict columns, foreach items, subflow bindings.
type Valuer interface {
	Value(env Env) (any, []Input, error)
	String() string
}

// Outcome is the evidence of one predicate evaluation.
type Outcome struct {
	Matched bool `json:"matched"`
	// Expr is the expression text (expression form only).
	Expr string `json:"expr,omitempty"`
	// Result is what the expression evaluated to (expression form only).
	Result any `json:"result,omitempty"`
	// Inputs are the identifiers and member paths the expression read, with
	// the values they had, in the order they appear in the source.
	Inputs Inputs `json:"inputs,omitempty"`
	// Conditions is the evidence of each filter condition, in declared order.
	Conditions []ConditionEvidence `json:"conditions,omitempty"`
	// Err is set when the predicate could not be evaluated.
	Err string `json:"error,omitempty"`
	// vacuous says an all() went over no items (Vacuous).
	vacuous string
}

// Vacuous is, for an expression, why its value rests on an all() that
// went over no items ("" when none did): a rule or a loop's condition
// that judged nothing (see patchVacuous). UnlessJudged makes it the
// outcome's error.
func (o *Outcome) Vacuous() string { return o.vacuous }

// UnlessJudged is o for a rule or a loop's condition: an evaluation that
// rested on an all() over no items is an error saying so, and no match.
func (o Outcome) UnlessJudged() Outcome {
	if o.vacuous != "" && o.Err == "" {
		o.Err, o.Matched = o.vacuous, false
	}
	return o
}

// Errored says whether the predicate could not be evaluated: an
// expression's run-time error, or a filter condition that could not judge
// the value it read while no other condition was judged false. Either
// counts as no match. A filter is its conditions all holding, so one
// judged false answers it whatever the others read: a deployment scaled
// to zero has no status.availableReplicas, and {availableReplicas: {lt:
// 1}, replicas: {gte: 1}} is a plain no over it, not a rule error.
func (o *Outcome) Errored() bool {
	if o.Err != "" {
		return true
	}
	unjudged := false
	for i := range o.Conditions {
		switch c := &o.Conditions[i]; {
		case c.Unjudged():
			unjudged = true
		case !c.Pass:
			return false
		}
	}
	return unjudged
}

// Input is one value an expression read: `volume.replicas` = 2.
type Input struct {
	Path  string
	Value any
}

// Inputs marshals as a JSON object whose keys keep their source order.
type Inputs []Input

// ConditionEvidence is one filter condition as it was evaluated.
type ConditionEvidence struct {
	Key      string `json:"key"`
	Op       Op     `json:"op"`
	Expected any    `json:"expected"`
	Actual   any    `json:"actual"`
	// Present is false when the key (or a segment of its dotted path) was missing.
	Present bool `json:"present"`
	Pass    bool `json:"pass"`
	// Reason says why a condition failed for a reason other than the values
	// differing (incomparable types, a missing key, a bad regular expression).
	Reason string `json:"reason,omitempty"`
}

// Unjudged says the condition could not judge the value it read: the key
// was there, but the operator does not apply to its kind (a string
// compared with a number, null or a list asked for an order, a string
// operator over a number, a kind no element of the list has), or the key
// was not there at all. Its fail is no answer about the data, as an
// expression's run-time error is none, and as an expression reading a
// member its object lacks is a rule error: Kubernetes leaves a
// Deployment's status.availableReplicas out when none is available, and
// {availableReplicas: {lt: 1}} was a plain no over the very deployment
// that was down. exists is the condition that asks about presence: its
// fail is its answer, and so is "value is null". A reserved af_ key's
// absence (reason "key not present", as every missing key's was in a
// record written before) is none either.
func (e *ConditionEvidence) Unjudged() bool {
	return !e.Pass && e.Reason != "" && e.Op != OpExists && (e.Present || e.Reason != reasonMissing)
}

// Op is a filter operator.
type Op string

// The filter operators, in the order the spec lists them.
const (
	OpEq         Op = "eq"
	OpNe         Op = "ne"
	OpGt         Op = "gt"
	OpGte        Op = "gte"
	OpLt         Op = "lt"
	OpLte        Op = "lte"
	OpIn         Op = "in"
	OpNotIn      Op = "notIn"
	OpContains   Op = "contains"
	OpStartsWith Op = "startsWith"
	OpEndsWith   Op = "endsWith"
	OpMatches    Op = "matches"
	OpExists     Op = "exists"
)

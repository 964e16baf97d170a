package label

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// Row is the script row the runtime files for every call that runs code:
// the stage path, how the call settled, the runner's facts, and the label
// [Of] read from them. It is what a saved record holds under "scripts".
type Row struct {
	Path       string     `json:"path"`
	Settlement Settlement `json:"settlement"`
	// Facts is nil when the runner filed none.
	Facts *Facts `json:"facts,omitempty"`
	Label Label  `json:"label"`
	// ExitCode is present only with completed and completed-with-failure
	// (see [Fits]).
	ExitCode *int `json:"exitCode,omitempty"`
	// ResultWithheld: the result was too large and kept out of the scope.
	// It never changes the label.
	ResultWithheld bool `json:"resultWithheld,omitempty"`
	// Words is [Words] for the label and exit code, carried so a reader of
	// the record needs no code to print it.
	Words string `json:"words"`
	// Ran is what the call ran, when its runner says (exec stages do), so
	// explain can show the command and what it printed. It never changes
	// the label.
	Ran *Ran `json:"ran,omitempty"`
	// Answer is the chart's word for the exit code when the chart declared
	// that code an answer (an exec stage's exitCodes:, such as "critical"
	// for a Nagios check's 2). It never changes the label (exit 2 is still
	// completed-with-failure); the assessment reads it: a declared answer
	// never fires script-failed.
	Answer string `json:"answer,omitempty"`
	// NotAnswer says why a code the chart declared an answer is not one
	// here (its stderr text absent, a shell's signal code under exitBits:,
	// smartctl's 2 with no low-power line): a declared 1 that read only
	// "completed with failure, exit 1" left the reader to guess. It never
	// changes the label.
	NotAnswer string `json:"notAnswer,omitempty"`
	// Attempt is which attempt of one stage execution the row is (1-based),
	// for a stage that retries within its execution (an exec stage with
	// retry:, whose attempts are one commit); 0 when the stage has no
	// retry. The rows of one execution are then attempt 1 up to the last,
	// whose outcome the stage wrote, so a reader pairs rows with commits.
	// It never changes the label.
	Attempt int `json:"attempt,omitempty"`
	// Call is which of a Go stage's own commands the row is (1-based, in
	// the order the stage ran them: runbook.RunCommand), so a reader pairs
	// the rows of one stage execution with it; 0 for every other stage.
	// It never changes the label.
	Call int `json:"call,omitempty"`
	// Execution is the runtime path, counter and all (`poll#2`), of the Go
	// stage execution that ran the command (a row with a Call), which the
	// record's Path drops: such a stage may run commands on some of its
	// executions and none on others (a loop's cached pass), so its rows
	// cannot be paired with its executions by count. "" for every other
	// row. It never changes the label.
	Execution string `json:"execution,omitempty"`
	// Cause says in words why an outcome-unknown row's outcome is unknown,
	// when the runner knows: "timed out after 2s", "could not be started:
	// not found", "cancelled". It never changes the label.
	Cause string `json:"cause,omitempty"`
}

// Ran is what one call ran: the argument vector (or a shell stage's
// script text), the working folder, and the last bytes of what it printed.
// Secret values are masked before a Ran is filed.
type Ran struct {
	Argv       []string `json:"argv,omitempty"`
	Shell      string   `json:"shell,omitempty"`
	Dir        string   `json:"dir,omitempty"`
	StdoutTail string   `json:"stdoutTail,omitempty"`
	StderrTail string   `json:"stderrTail,omitempty"`
}

// NewRow files the row for one call, its label read by [Of]. The facts are
// copied, so a caller that reuses its Facts cannot change a filed row.
//
// settlement should be one of [Settlements]. Any other is filed as given
// and labelled outcome-unknown, and [ReadRow] refuses that row: the caller
// handed over a settlement nobody can read.
func NewRow(path string, settlement Settlement, facts *Facts, resultWithheld bool) Row {
	facts = copyFacts(facts)
	out := Of(settlement, facts)
	return Row{
		Path:           path,
		Settlement:     settlement,
		Facts:          facts,
		Label:          out.Label,
		ExitCode:       out.ExitCode,
		ResultWithheld: resultWithheld,
		Words:          Words(out.Label, out.ExitCode),
	}
}

// Said is how every list of script rows words this row for a person (the
// text and markdown Scripts parts): [Words], except that
//
//	an exit code the chart declared an answer   answered critical (exit 2)
//	a process a signal ended                    reported failure, killed by SIGKILL
//	outcome-unknown with a cause                outcome unknown: timed out after 2s
//
// A declared answer is the script's measurement, not a broken script
// (honesty.md §6), so it is never worded as a failure; the label and
// Words stay what the record says (exit 2 is still completed-with-failure).
func (r Row) Said() string {
	if r.Answered() {
		return "answered " + r.Answer + " (exit " + strconv.Itoa(*r.ExitCode) + ")"
	}
	words := r.Words
	if words == "" {
		words = Words(r.Label, r.ExitCode)
	}
	if r.Facts != nil && r.Facts.TerminatedBy != "" {
		words += KilledBy(r.Facts.TerminatedBy)
	}
	if r.Cause != "" {
		words += ": " + r.Cause
	}
	if r.NotAnswer != "" {
		words += ": " + r.NotAnswer
	}
	return words
}

// KilledBy is how a sentence about a call adds the signal that ended its
// process (Facts.TerminatedBy): ", killed by SIGKILL". The label stays
// what the record says (reported-failure); the signal is what tells an
// out-of-memory kill from a script that said it failed.
func KilledBy(signal string) string { return ", killed by " + signal }

// Answered says whether the row's exit code is one the chart declared an
// answer: such a row is never a script failure.
func (r Row) Answered() bool { return r.Answer != "" && r.ExitCode != nil }

// UnmarshalJSON reads a saved row through [ReadRow], so a row decoded as
// part of a larger value is held to the same checks.
func (r *Row) UnmarshalJSON(data []byte) error {
	row, err := ReadRow(data)
	if err != nil {
		return err
	}
	*r = row
	return nil
}

// ReadRow reads one saved script row from JSON and refuses a row no writer
// of this package files; see [RowFromValue] for the checks.
func ReadRow(data []byte) (Row, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return Row{}, fmt.Errorf("label: script row is not JSON: %w", err)
	}
	return RowFromValue(v)
}

// RowFromValue reads one saved script row from a JSON-decoded value (a
// map[string]any as encoding/json produces). It refuses, naming the field
// and what would be right: a value that is not an object; a path that is
// not a string; an unknown settlement or label; facts or fields of the
// wrong type; an exit code (in the row or its facts) that is not one by
// [IsExitCode]; a label and exit code that do not [Fits]; a label or exit
// code other than what [Of] files from the row's own settlement and facts;
// and words other than [Words]. Unknown keys are ignored, so a newer writer
// may add some. null counts as omitted. It never panics.
func RowFromValue(v any) (Row, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Row{}, fmt.Errorf("label: script row must be a JSON object, got %s", jsonv.Describe(v))
	}
	var row Row
	var err error
	if row.Path, err = stringField(m, "path", true); err != nil {
		return Row{}, err
	}
	path := row.Path
	where := func(format string, args ...any) error {
		return fmt.Errorf("label: script row %q: "+format, append([]any{path}, args...)...)
	}

	settlement, err := stringField(m, "settlement", true)
	if err != nil {
		return Row{}, where("%v", err)
	}
	row.Settlement = Settlement(settlement)
	if !row.Settlement.Known() {
		return Row{}, where("settlement %q is not one of %v", settlement, Settlements)
	}

	if row.Facts, err = factsFromValue(m["facts"]); err != nil {
		return Row{}, where("%v", err)
	}

	lbl, err := stringField(m, "label", true)
	if err != nil {
		return Row{}, where("%v", err)
	}
	row.Label = Label(lbl)
	if !row.Label.Known() {
		return Row{}, where("label %q is not one of %v", lbl, Labels)
	}

	if raw, present := m["exitCode"]; present && raw != nil {
		code, ok := ExitCodeOf(raw)
		if !ok {
			return Row{}, where("exitCode %s is not an exit code (a whole number)", show(raw))
		}
		row.ExitCode = &code
	}
	if !Fits(row.Label, row.ExitCode) {
		return Row{}, where("label %q does not fit %s: an exit code rides only completed (0) and completed-with-failure (non-zero), and those two always carry one", row.Label, showCode(row.ExitCode))
	}

	want := Of(row.Settlement, row.Facts)
	if want.Label != row.Label || !sameCode(want.ExitCode, row.ExitCode) {
		return Row{}, where("label %q with %s disagrees with its own settlement and facts, which file %q with %s", row.Label, showCode(row.ExitCode), want.Label, showCode(want.ExitCode))
	}

	switch w := m["resultWithheld"].(type) {
	case nil:
	case bool:
		row.ResultWithheld = w
	default:
		return Row{}, where("resultWithheld must be true or false, got %s", jsonv.Describe(w))
	}

	if row.Ran, err = ranFromValue(m["ran"]); err != nil {
		return Row{}, where("%v", err)
	}
	if row.Answer, err = stringField(m, "answer", false); err != nil {
		return Row{}, where("%v", err)
	}
	if row.Cause, err = stringField(m, "cause", false); err != nil {
		return Row{}, where("%v", err)
	}
	for _, f := range []struct {
		key, what string
		into      *int
	}{{"attempt", "an attempt number", &row.Attempt}, {"call", "a call number", &row.Call}} {
		if raw := m[f.key]; raw != nil {
			n, ok := jsonv.Whole(raw)
			if !ok || n < 1 {
				return Row{}, where("%s %s is not %s (a whole number from 1)", f.key, show(raw), f.what)
			}
			*f.into = n
		}
	}
	if row.Execution, err = stringField(m, "execution", false); err != nil {
		return Row{}, where("%v", err)
	}

	row.Words = Words(row.Label, row.ExitCode)
	words, err := stringField(m, "words", false)
	if err != nil {
		return Row{}, where("%v", err)
	}
	if m["words"] != nil && words != row.Words {
		return Row{}, where("words %q should be %q for label %q", words, row.Words, row.Label)
	}
	return row, nil
}

// factsFromValue reads a saved row's facts strictly: a saved row was filed
// from typed Facts, so an exit code that is not one was never written.
func factsFromValue(v any) (*Facts, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("facts must be an object, got %s", jsonv.Describe(v))
	}
	var f Facts
	switch ok := m["ok"].(type) {
	case nil:
	case bool:
		f.OK = &ok
	default:
		return nil, fmt.Errorf("facts.ok must be true or false, got %s", jsonv.Describe(ok))
	}
	if raw := m["exitCode"]; raw != nil {
		code, ok := ExitCodeOf(raw)
		if !ok {
			return nil, fmt.Errorf("facts.exitCode %s is not an exit code (a whole number)", show(raw))
		}
		f.ExitCode = &code
	}
	switch se := m["serviceError"].(type) {
	case nil:
	case bool:
		f.ServiceError = se
	default:
		return nil, fmt.Errorf("facts.serviceError must be true or false, got %s", jsonv.Describe(se))
	}
	switch tb := m["terminatedBy"].(type) {
	case nil:
	case string:
		f.TerminatedBy = tb
	default:
		return nil, fmt.Errorf("facts.terminatedBy must be a string, got %s", jsonv.Describe(tb))
	}
	return &f, nil
}

// ranFromValue reads a saved row's ran object: every field optional, each
// of its one type.
func ranFromValue(v any) (*Ran, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("ran must be an object, got %s", jsonv.Describe(v))
	}
	var r Ran
	if raw := m["argv"]; raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return nil, fmt.Errorf("ran.argv must be a list of strings, got %s", jsonv.Describe(raw))
		}
		for i, a := range list {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf("ran.argv[%d] must be a string, got %s", i, jsonv.Describe(a))
			}
			r.Argv = append(r.Argv, s)
		}
	}
	var err error
	for _, f := range []struct {
		key string
		to  *string
	}{{"shell", &r.Shell}, {"dir", &r.Dir}, {"stdoutTail", &r.StdoutTail}, {"stderrTail", &r.StderrTail}} {
		if *f.to, err = stringField(m, f.key, false); err != nil {
			return nil, fmt.Errorf("ran.%v", err)
		}
	}
	return &r, nil
}

func stringField(m map[string]any, key string, required bool) (string, error) {
	switch s := m[key].(type) {
	case string:
		return s, nil
	case nil:
		if required {
			return "", fmt.Errorf("%s is missing", key)
		}
		return "", nil
	default:
		return "", fmt.Errorf("%s must be a string, got %s", key, jsonv.Describe(s))
	}
}

func copyFacts(f *Facts) *Facts {
	if f == nil {
		return nil
	}
	out := *f
	if f.OK != nil {
		ok := *f.OK
		out.OK = &ok
	}
	if f.ExitCode != nil {
		code := *f.ExitCode
		out.ExitCode = &code
	}
	return &out
}

func sameCode(a, b *int) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

func showCode(code *int) string {
	if code == nil {
		return "no exit code"
	}
	return fmt.Sprintf("exit code %d", *code)
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

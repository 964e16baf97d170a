package runbook

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/rules"
)

// InputError is a run refused before any stage ran: an input missing,
// unknown or of the wrong type. It names the input.
type InputError struct {
	Input string
	Msg   string
	// Fix says what would put it right when that is to give the input
	// (again): the caller words it for its own surface (the CLI says
	// `--input NAME=…`, a tool call names its argument). FixNone: Msg
	// says what would be right.
	Fix InputFix
}

// InputFix is what would put a refused input right.
type InputFix int

const (
	// FixNone: the message says what would be right.
	FixNone InputFix = iota
	// FixGive: the input was not given and must be.
	FixGive
	// FixGiveAgain: the input is secret, the record does not keep it, and
	// a resume must be given it again.
	FixGiveAgain
)

func (e *InputError) Error() string { return fmt.Sprintf("input %q: %s", e.Input, e.Msg) }

// InputErrors lists every refused input.
type InputErrors []*InputError

func (es InputErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// resolvedInputs are the values a run starts with: given by the person, or
// assumed from a declared default (which the assessment reports), and the
// chart's constants (vars:), which are neither.
type resolvedInputs struct {
	values  map[string]any
	given   []string
	assumed []string
	secrets secret.Set
	// varInputs lists, for each var, the inputs its value came from
	// (through earlier vars too): a stage that reads the var used them, so
	// an assumed input read only through a var is still a used assumption.
	varInputs map[string][]string
}

// resolveInputs checks the given inputs against the declared ones and fills
// defaults. A string given for a non-string type (from `--input k=v`) is
// converted; every problem is reported, not only the first.
func (rb *Runbook) resolveInputs(given map[string]any, now func() time.Time, zone *time.Location) (*resolvedInputs, error) {
	out := &resolvedInputs{values: map[string]any{}, secrets: secret.New()}
	var errs InputErrors
	declared := map[string]chart.InputSpec{}
	for _, in := range rb.spec.Inputs {
		declared[in.Name] = in
	}
	names := make([]string, 0, len(given))
	for k := range given {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		in, ok := declared[k]
		if !ok && isVar(rb.spec.Vars, k) {
			errs = append(errs, &InputError{Input: k, Msg: fmt.Sprintf("is not an input of %s: it is the chart's constant (vars:), which no caller sets%s",
				rb.spec.Name, knownInputs(rb.spec.Inputs))})
			continue
		}
		if !ok {
			msg := "is not an input of " + rb.spec.Name + knownInputs(rb.spec.Inputs)
			if near := suggest.Nearest(k, inputNames(rb.spec.Inputs)); near != "" {
				msg = fmt.Sprintf("is not an input of %s; did you mean %q?", rb.spec.Name, near)
			}
			errs = append(errs, &InputError{Input: k, Msg: msg})
			continue
		}
		v, err := convertInput(in.Type, given[k])
		if err != nil {
			msg := err.Error()
			if in.Secret {
				msg = "is not a " + in.Type + " (value hidden: the input is secret)"
			}
			errs = append(errs, &InputError{Input: k, Msg: msg})
			continue
		}
		out.values[k] = v
		out.given = append(out.given, k)
	}
	for _, in := range rb.spec.Inputs {
		if _, ok := out.values[in.Name]; ok {
			continue
		}
		if _, bad := given[in.Name]; bad {
			continue
		}
		switch {
		case in.HasDefault:
			v, err := convertInput(in.Type, in.Default)
			if err != nil {
				errs = append(errs, &InputError{Input: in.Name, Msg: "its default " + err.Error()})
				continue
			}
			out.values[in.Name] = v
			out.assumed = append(out.assumed, in.Name)
		case in.Required:
			errs = append(errs, &InputError{Input: in.Name, Msg: fmt.Sprintf("is required (%s%s)", in.Type, describe(in.Description)), Fix: FixGive})
		}
	}
	for _, in := range rb.spec.Inputs {
		if v, ok := out.values[in.Name]; ok && in.Secret {
			out.secrets.Add(v)
		}
	}
	// A refusal is said before any run masks it: what it quotes (a value
	// given to another input, a var's error over a secret) is masked here.
	if len(errs) > 0 {
		return nil, errs.maskedBy(out.secrets)
	}
	varInputs, err := rb.evalVars(out.values, out.secrets, now, zone)
	if err != nil {
		return nil, errors.New(out.secrets.Text(err.Error())) // no Unwrap: the cause is unmasked
	}
	out.varInputs = varInputs
	return out, nil
}

// evalVars evaluates the chart's constants once, in order, before the
// first stage: each reads the inputs and the vars before it (the loader
// holds it to them) and is written beside the inputs. A var is neither
// given nor assumed, so the assessment never counts it as an assumption:
// it is the chart's policy. A var that cannot be evaluated refuses the run.
// It returns, for each var, the inputs its value came from (varsFrom).
func (rb *Runbook) evalVars(values map[string]any, secrets secret.Set, now func() time.Time, zone *time.Location) (map[string][]string, error) {
	get := func(k string) (any, bool) { v, ok := values[k]; return v, ok }
	for _, a := range rb.spec.Vars {
		v, _, err := a.Expr.Value(zonedEnv(timedEnv(stateEnv(values), now), zone))
		if err != nil {
			return nil, fmt.Errorf("var %q: %s: %w", a.Key, rules.OneLine(a.Src), err)
		}
		deriveSecret(secrets, a.Expr, get, v) // state.go: the taint rule
		values[a.Key] = v
	}
	return rb.varsFrom(), nil
}

// varsFrom is, for each var, the inputs the chart computes it from: the
// inputs its expression reads, and those of the vars before it that it
// reads. It is the chart's, not a run's: a run resumed after an ask: asks
// it as the first run did, where it was a by-product of evaluating the
// vars and a resumed run had none, so a default read only through a var
// was not counted as assumed (TestResumedRunCountsAnInputReadThroughAVar).
func (rb *Runbook) varsFrom() map[string][]string {
	from := map[string][]string{}
	isInput := map[string]bool{}
	for _, in := range rb.spec.Inputs {
		isInput[in.Name] = true
	}
	for _, a := range rb.spec.Vars {
		var ins []string
		if x, ok := a.Expr.(*rules.Expr); ok {
			for _, r := range x.Roots() {
				if earlier, isVar := from[r]; isVar {
					ins = append(ins, earlier...)
				} else if isInput[r] {
					ins = append(ins, r)
				}
			}
		}
		slices.Sort(ins)
		from[a.Key] = slices.Compact(ins)
	}
	return from
}

func isVar(vars []chart.Assign, name string) bool {
	return slices.ContainsFunc(vars, func(a chart.Assign) bool { return a.Key == name })
}

func describe(d string) string {
	if d == "" {
		return ""
	}
	return ": " + d
}

func knownInputs(ins []chart.InputSpec) string {
	if len(ins) == 0 {
		return ", which declares no inputs"
	}
	return " (inputs: " + strings.Join(inputNames(ins), ", ") + ")"
}

func inputNames(ins []chart.InputSpec) []string {
	names := make([]string, len(ins))
	for i, in := range ins {
		names[i] = in.Name
	}
	return names
}

// thousandsByPoint is a number text that reads one way with a decimal
// point and another with a point between thousands, as de_DE, da_DK and
// it_IT write them: a leading digit that is not 0, then one point and
// three digits ("1.000", "10.000", "250.000"). convertInput refuses it,
// as a typed "1.000" could mean either (TestInputNumberWrittenAsALocaleDoesIsRefused).
var thousandsByPoint = regexp.MustCompile(`^[+-]?[1-9]\d{0,2}\.\d{3}$`)

// decimalComma is a number text written with a decimal comma, perhaps
// after thousands grouped by points, spaces or apostrophes ("1,5",
// "1.234,5", "12 345,5"): no C number, and convertInput says how C writes
// it.
var decimalComma = regexp.MustCompile(`^[+-]?(?:\d{1,3}(?:[. ']\d{3})+|\d+),\d+$`)

// convertInput checks v against a declared type; a string is parsed into
// the type (that is how `--input k=v` arrives). Whether a value fits is
// jsonv.Fits, the rule plugin arguments are checked by too.
func convertInput(typ string, v any) (any, error) {
	if s, isStr := v.(string); isStr {
		switch typ {
		case "number":
			t := strings.TrimSpace(s)
			if i, err := strconv.ParseInt(t, 10, 64); err == nil {
				return int(i), nil
			}
			if thousandsByPoint.MatchString(t) {
				// "10.000" is ten to C and ten thousand as de_DE writes
				// it: a floor of 10.000 MB typed in Germany was read as
				// 10, and 500 MB free stood over it.
				return nil, fmt.Errorf("is not one number: %q is %s read with a decimal point, and %s where a point groups thousands (de_DE, da_DK, it_IT): write %s or %s", s, strings.TrimRight(strings.TrimRight(t, "0"), "."), strings.ReplaceAll(t, ".", ""), strings.TrimRight(strings.TrimRight(t, "0"), "."), strings.ReplaceAll(t, ".", ""))
			}
			f, err := strconv.ParseFloat(t, 64)
			if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				// ParseFloat also reads NaN, Inf and 1e999 (as +Inf): no
				// JSON number, so no record could hold the run's inputs.
				if decimalComma.MatchString(t) {
					return nil, fmt.Errorf("is not a number: %q (a number is written with a decimal point and no grouping, as C writes it: %s)", s, strings.ReplaceAll(strings.NewReplacer(".", "", " ", "", "'", "").Replace(t), ",", "."))
				}
				return nil, fmt.Errorf("is not a number: %q", s)
			}
			if n := json.Number(t); jsonv.Of(n) == jsonv.Number {
				// the number the text spells, as every JSON reader here
				// holds it: 12345678901234567890 keeps its digits
				return jsonv.Decoded(n), nil
			}
			return f, nil
		case "bool":
			// Go's flags' reading (1, t, T, TRUE, True, true and the false
			// forms): what a Go CLI's user types; never yes/on (docs/CHARTS.md)
			b, err := strconv.ParseBool(s)
			if err != nil {
				return nil, fmt.Errorf("is not a bool: %q (true or false)", s)
			}
			return b, nil
		case "duration":
			if _, err := time.ParseDuration(s); err != nil {
				return nil, fmt.Errorf("is not a duration: %q (like 90s, 2h, 1h30m)%s", s, rules.DurationHint(s))
			}
			return s, nil
		case "list":
			// jsonv.Unmarshal: its numbers as a tool call's or a command's
			// JSON would hold them
			l, err := jsonv.Unmarshal([]byte(s))
			if _, ok := l.([]any); err != nil || !ok {
				return nil, fmt.Errorf("is not a list%s: give a JSON array, like [\"a\",\"b\"]", notJSONBecause(s, '[', err))
			}
			return l, nil
		case "object":
			m, err := jsonv.Unmarshal([]byte(s))
			if _, ok := m.(map[string]any); err != nil || !ok {
				return nil, fmt.Errorf("is not an object%s: give a JSON object, like {\"k\":1}", notJSONBecause(s, '{', err))
			}
			return m, nil
		}
	}
	want, known := inputTypeWords[typ]
	if !known {
		return nil, fmt.Errorf("has an unknown type %q", typ)
	}
	if !jsonv.Fits(typ, v) {
		return nil, fmt.Errorf("is not %s (got %s)", want, jsonv.Describe(v))
	}
	if err := jsonv.Writable(v); err != nil {
		return nil, fmt.Errorf("is not %s: it holds %s", want, err)
	}
	if d, ok := v.(time.Duration); ok {
		return d.String(), nil // a duration input holds the text, as one given as a string does
	}
	// The run's own copy: a default is the compiled chart's, shared by
	// every run, and a given list or object is the caller's map; the state
	// and the record would hold them as they are, so an edit of one run's
	// record (or of the caller's map after the run) would change the next
	// run's default (or what the record says this run was given).
	return jsonv.Copy(v), nil
}

// notJSONBecause says why a text that opens as a JSON list or object
// (open) is none, as the JSON reader says it: `--input 'allowed=[22,]'`
// or `[22,'3389']` was refused as "is not a list" beside the advice to
// give a JSON array, which it looked like (TestListInputNotJSONSaysWhy).
// "" for a text that does not open so, or that read. A secret input's
// refusal is replaced whole (resolve), so this never quotes one.
func notJSONBecause(s string, open byte, err error) string {
	t := strings.TrimSpace(s)
	if err == nil || t == "" || t[0] != open {
		return ""
	}
	why := err.Error()
	if strings.Contains(t, "'") {
		why += " (JSON quotes text with \", not ')"
	}
	return ": it is no JSON: " + why
}

// inputTypeWords names each input type as a refusal says it.
var inputTypeWords = map[string]string{
	"string":   "a string",
	"number":   "a number",
	"bool":     "a bool",
	"duration": "a duration",
	"list":     "a list",
	"object":   "an object",
}

// maskedBy is errs with the secrets given beside them masked in every
// message: a refusal quotes what was given, and a secret may be in it.
func (errs InputErrors) maskedBy(secrets secret.Set) InputErrors {
	for _, e := range errs {
		e.Msg = secrets.Text(e.Msg)
	}
	return errs
}

// Inputs are a run's inputs as JSON from outside carries them — a tool
// call's arguments, a workflow's payload — read as every JSON reader here
// reads numbers (jsonv.Unmarshal): a whole number is an int, one past
// what a float64 spells keeps its digits, a fraction is a float64. A map
// decoded by encoding/json alone held every number as a float64, so an
// executor that carried a run's inputs through JSON (Temporal) ran a
// chart over 1e+08 where the local run had 100000000, and over
// 9007199254740992 where it had …993. Exec takes it as the map it is.
type Inputs map[string]any

// UnmarshalJSON reads a JSON object of inputs (null: none), its numbers as
// jsonv.Unmarshal settles them.
func (in *Inputs) UnmarshalJSON(b []byte) error {
	v, err := jsonv.Unmarshal(b)
	if err != nil {
		return err
	}
	switch m := v.(type) {
	case nil:
		*in = nil
	case map[string]any:
		*in = m
	default:
		return fmt.Errorf("inputs: want a JSON object of inputs, got %s", jsonv.Describe(v))
	}
	return nil
}

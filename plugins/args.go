package plugins

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/internal/suggest"
	"github.com/openrunbook/runbook/plugins/label"
)

// ApplyArgs applies the host's argument rules to the arguments a stage
// gives a plugin described by d: every given name is declared, every
// required one is given, each value fits its declared type, and each
// missing argument with a declared default takes it. args is given with
// the defaults filled (given itself is not written); assumed names the
// arguments filled from defaults, sorted — each an ASSUMED value the host
// reports by the plugin's name.
//
// It is the one home of these rules: the host calls it before every call
// and the SDK's test helper calls it too, so a plugin's tests see what the
// host would send; CheckArgs judges by the same function before a run.
// err is an *ArgError naming the argument and what would be right.
func ApplyArgs(d Description, given map[string]any) (args map[string]any, assumed []string, err error) {
	args, assumed, errs := judgeArgs(d, given, nil, false)
	if len(errs) > 0 {
		return nil, nil, errs[0]
	}
	return args, assumed, nil
}

// CheckArgs is ApplyArgs before a run, as `runbook validate` and `plan`
// judge a chart: it returns every refusal, not the first. The arguments
// named in later are given, but their values are known only when the
// stage runs (an expression over the scope): they count as given and
// their names are checked, their values are not.
func CheckArgs(d Description, given map[string]any, later []string) []*ArgError {
	g := given
	if len(later) > 0 {
		g = make(map[string]any, len(given)+len(later))
		for k, v := range given {
			g[k] = v
		}
		for _, k := range later {
			g[k] = nil
		}
	}
	_, _, errs := judgeArgs(d, g, later, true)
	return errs
}

// judgeArgs is the rules ApplyArgs and CheckArgs share: given names are
// judged in sorted order (so the first refusal named is the same every
// run), then the declared arguments not given, in declared order. Values
// of the arguments in unknown are not judged. It stops at the first
// refusal unless all.
func judgeArgs(d Description, given map[string]any, unknown []string, all bool) (args map[string]any, assumed []string, errs []*ArgError) {
	decl := make(map[string]Arg, len(d.Args))
	names := make([]string, 0, len(d.Args))
	for _, a := range d.Args {
		decl[a.Name] = a
		names = append(names, a.Name)
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	args = make(map[string]any, len(d.Args))
	refuse := func(e *ArgError) bool {
		errs = append(errs, e)
		return !all
	}
	for _, k := range keys {
		da, ok := decl[k]
		if !ok {
			why := "no such argument"
			if near := suggest.Nearest(k, names); near != "" {
				why += fmt.Sprintf(" (did you mean %q?)", near)
			}
			if refuse(&ArgError{Plugin: d.Name, Arg: k, Problem: Unknown,
				Reason: fmt.Sprintf("%s; it takes: %s", why, argNames(names))}) {
				return nil, nil, errs
			}
			continue
		}
		v := given[k]
		if !slices.Contains(unknown, k) {
			if is, want, ok := allowed(da, v); !ok {
				if refuse(&ArgError{Plugin: d.Name, Arg: k, Problem: WrongType, Reason: fmt.Sprintf("is %s, want %s", is, want)}) {
					return nil, nil, errs
				}
				continue
			}
		}
		args[k] = v
	}
	for _, a := range d.Args {
		if _, ok := given[a.Name]; ok {
			continue
		}
		switch {
		case a.HasDefault:
			args[a.Name] = a.Default
			assumed = append(assumed, a.Name)
		case a.Required:
			why := "required, and not given"
			if a.Description != "" {
				why += " (" + a.Description + ")"
			}
			if refuse(&ArgError{Plugin: d.Name, Arg: a.Name, Problem: Missing, Reason: why}) {
				return nil, nil, errs
			}
		}
	}
	slices.Sort(assumed)
	return args, assumed, errs
}

// CheckDescription refuses a description the host cannot apply its
// argument rules to: an argument without a name or declared twice, a type
// outside the vocabulary (which would silently turn its checking off), or a
// default that does not fit its own type (it would be sent unchecked, and
// reported as ASSUMED). The host calls it once per process, when the plugin
// describes itself.
func CheckDescription(d Description) error {
	seen := make(map[string]bool, len(d.Args))
	for _, a := range d.Args {
		switch {
		case a.Name == "":
			return &ArgError{Plugin: d.Name, Problem: BadDeclaration, Reason: "an argument is declared without a name"}
		case seen[a.Name]:
			return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration, Reason: "declared twice"}
		case !jsonv.Known(a.Type):
			why := fmt.Sprintf("declares type %q, which is not a type runbook checks (types: %s)", a.Type, strings.Join(jsonv.Types, ", "))
			if near := suggest.Nearest(a.Type, jsonv.Types); near != "" {
				why += fmt.Sprintf("; did you mean %q?", near)
			}
			return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration, Reason: why}
		case (a.Min != nil || a.Max != nil) && a.Type != "number" && a.Type != "integer":
			return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration,
				Reason: fmt.Sprintf("declares min or max on %s; bounds are for a number or an integer", aType(typeWord(a.Type)))}
		case a.Required && a.HasDefault:
			// The host fills the default, so the argument is never
			// missing: `runbook plugins` listed it "(required)" and a
			// chart that left it out ran on the default, assumed.
			return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration,
				Reason: "declares a default for a required argument: a chart that leaves it out gets the default, so it is not required; drop Required, or the default"}
		case a.Min != nil && a.Max != nil && *a.Min > *a.Max:
			return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration,
				Reason: fmt.Sprintf("declares min %v above max %v", *a.Min, *a.Max)}
		}
		for i, e := range a.Enum {
			if !jsonv.Fits(a.Type, e) {
				return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration,
					Reason: fmt.Sprintf("declares enum value %d that is %s, not %s", i+1, jsonv.Describe(e), aType(a.Type))}
			}
		}
		if a.HasDefault {
			if is, want, ok := allowed(a, a.Default); !ok {
				return &ArgError{Plugin: d.Name, Arg: a.Name, Problem: BadDeclaration,
					Reason: fmt.Sprintf("declares a default that is %s, not %s", is, want)}
			}
		}
		seen[a.Name] = true
	}
	return nil
}

// allowed says whether v may be passed as a: it fits the declared type, is
// one of the enum's values when there is one, and lies within min and max.
// When not, is says what v is and want what would be right ("a string",
// "a number"). ApplyArgs judges a given value and CheckDescription a
// default by it, so a default can never be what a chart may not give.
func allowed(a Arg, v any) (is, want string, ok bool) {
	if !jsonv.Fits(a.Type, v) {
		return jsonv.Describe(v), aType(typeWord(a.Type)), false
	}
	if len(a.Enum) > 0 && !slices.ContainsFunc(a.Enum, func(e any) bool { return jsonv.Equal(e, v) }) {
		return shown(v), "one of " + enumWords(a.Enum), false
	}
	if f, isNum := jsonv.Float(v); isNum {
		if a.Min != nil && f < *a.Min {
			return shown(v), fmt.Sprintf("at least %v", *a.Min), false
		}
		if a.Max != nil && f > *a.Max {
			return shown(v), fmt.Sprintf("at most %v", *a.Max), false
		}
	}
	return "", "", true
}

// shown is a value as a chart would write it: JSON text, cut when long.
func shown(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return jsonv.Describe(v)
	}
	if s := string(b); len(s) <= 60 {
		return s
	}
	return string(b[:57]) + "..."
}

func enumWords(enum []any) string {
	w := make([]string, len(enum))
	for i, e := range enum {
		w[i] = shown(e)
	}
	return strings.Join(w, ", ")
}

// typeWord is a declared type as a message says it ("" is any value).
func typeWord(t string) string {
	if t == "" || t == "any" {
		return "any value"
	}
	return t
}

// Problem is what is wrong with an argument.
type Problem uint8

// The problems ApplyArgs finds.
const (
	Unknown   Problem = iota + 1 // the plugin declares no such argument
	Missing                      // a required argument not given
	WrongType                    // a value that does not fit the declared type
	// BadDeclaration is the plugin's own: its description declares the
	// argument wrongly (CheckDescription).
	BadDeclaration
)

// ArgError is an argument the host refuses to pass a plugin.
type ArgError struct {
	Plugin  string
	Arg     string
	Problem Problem
	// Reason says what is wrong and what would be right.
	Reason string
}

func (e *ArgError) Error() string {
	return fmt.Sprintf("plugin %q argument %q: %s", e.Plugin, e.Arg, e.Reason)
}

func argNames(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// aType is a declared type with its article: "a number", "an integer".
func aType(t string) string {
	if t != "" && strings.ContainsRune("aeiou", rune(t[0])) {
		return "an " + t
	}
	return "a " + t
}

// MaxResultBytes bounds the JSON text of one call's result: the 8 MiB an
// expression's value may be in a run (rules.DefaultMaxValue, which a test
// holds this to), so no value a plugin gives is larger than one a chart
// could make. go-plugin lets a message be 2 GiB.
const MaxResultBytes = 8 << 20

// CheckResultSize refuses a result whose JSON text is n bytes, past
// MaxResultBytes. Kept, a 30 MB answer went into the scope and made a
// 63 MB record, while an exec stage's output past its cap is withheld.
// The host asks it of every answer, and sdk.TestServe and sdk.TestProcess
// do too.
func CheckResultSize(n int) error {
	if n > MaxResultBytes {
		return fmt.Errorf("answered with a result of %d bytes of JSON, more than the 8 MiB a plugin's result may be: return less (a count, a page, the first items) or write the bulk to a file and return its path", n)
	}
	return nil
}

// MaxMessageBytes bounds each text a plugin's answer carries beside its
// result: its error (a recovered panic's stack included, itself ≤ 8 KB)
// and its facts' TerminatedBy. Uncut, a plugin whose error quoted a 30 MB
// input went whole into the run's error, the stage's into.error and the
// record (63 MB), and `runbook exec` printed it all on stderr.
const MaxMessageBytes = 16 << 10

// CutMessage is s cut to MaxMessageBytes, at a UTF-8 boundary, with how
// much was cut said at the end. The one reader of the wire (package
// wire's StageClient) cuts every answer's texts with it, for the host and
// the SDK's test helpers alike.
func CutMessage(s string) string {
	if len(s) <= MaxMessageBytes {
		return s
	}
	n := MaxMessageBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return fmt.Sprintf("%s…(cut: %d more bytes; a plugin's message may be %d KiB)", s[:n], len(s)-n, MaxMessageBytes>>10)
}

// CheckResponse refuses an answer that does not fit the plugin's own
// description: execution facts from a plugin that declares it runs no
// code. There is no script row to file them in; kept silently, a process
// the plugin said failed stood under a fine-looking result as "Consistent
// with the run's record". The host calls it on every answer, and a
// plugin's tests through sdk.TestServe or sdk.TestProcess do too.
//
// Nor does an answer whose facts contradict themselves: an exit code of 0
// beside a sign that the code failed (ok false, a service error, a
// signal that killed it). The label reads an exit code first
// (label.Of), so such a call was filed "completed" and the rest dropped:
// a plugin that said its process was killed by SIGKILL, or that it judged
// the call failed, stood "Consistent with the run's record".
func CheckResponse(d Description, r Response) error {
	if r.Facts != nil && !d.RunsCode {
		return fmt.Errorf("answered with the facts of code it ran (%s), but it declares it runs no code: its Describe must say RunsCode: true for the call to file a script row", factsWords(r.Facts))
	}
	if f := r.Facts; f != nil && f.ExitCode != nil && *f.ExitCode == 0 && (f.OK != nil && !*f.OK || f.ServiceError || f.TerminatedBy != "") {
		return fmt.Errorf("answered with facts that contradict themselves (%s): exit code 0 says the code completed, and the label would file that alone; give the code the process really ended with, no exit code for a process a signal killed (TerminatedBy), or an error for a call that failed", factsWords(f))
	}
	return nil
}

// factsWords is what facts say, for an error message.
func factsWords(f *label.Facts) string {
	var w []string
	if f.ExitCode != nil {
		w = append(w, fmt.Sprintf("exit code %d", *f.ExitCode))
	}
	if f.OK != nil {
		w = append(w, fmt.Sprintf("ok %t", *f.OK))
	}
	if f.ServiceError {
		w = append(w, "a service error")
	}
	if f.TerminatedBy != "" {
		w = append(w, "terminated by "+f.TerminatedBy)
	}
	if len(w) == 0 {
		return "empty"
	}
	return strings.Join(w, ", ")
}

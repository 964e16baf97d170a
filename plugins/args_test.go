package plugins_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openrunbook/runbook/plugins"
)

var probe = plugins.Description{
	Name: "probe",
	Args: []plugins.Arg{
		{Name: "url", Type: "string", Required: true, Description: "what to fetch"},
		{Name: "timeout", Type: "duration", Default: "5s", HasDefault: true},
		{Name: "retries", Type: "number", Default: 2, HasDefault: true},
		{Name: "anything"},
	},
}

func TestApplyArgs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		given   map[string]any
		args    map[string]any
		assumed []string
		problem plugins.Problem
		arg     string
		says    string
	}{
		{name: "defaults filled and assumed, sorted",
			given:   map[string]any{"url": "http://x"},
			args:    map[string]any{"url": "http://x", "timeout": "5s", "retries": 2},
			assumed: []string{"retries", "timeout"}},
		{name: "a given value is not assumed",
			given:   map[string]any{"url": "u", "timeout": "1s", "anything": []any{1}},
			args:    map[string]any{"url": "u", "timeout": "1s", "retries": 2, "anything": []any{1}},
			assumed: []string{"retries"}},
		// TestArgFitsJSONNumber was the regression: the number list once
		// left out json.Number, which inputs of type number take.
		{name: "json.Number is a number",
			given: map[string]any{"url": "u", "retries": json.Number("3")},
			args:  map[string]any{"url": "u", "retries": json.Number("3"), "timeout": "5s"}, assumed: []string{"timeout"}},
		{name: "unknown with did-you-mean", given: map[string]any{"url": "u", "retires": 3},
			problem: plugins.Unknown, arg: "retires", says: `did you mean "retries"?`},
		{name: "unknown lists what it takes", given: map[string]any{"url": "u", "zzz": 3},
			problem: plugins.Unknown, arg: "zzz", says: "it takes: url, timeout, retries, anything"},
		{name: "missing required", given: map[string]any{},
			problem: plugins.Missing, arg: "url", says: "required, and not given (what to fetch)"},
		{name: "wrong type", given: map[string]any{"url": 3},
			problem: plugins.WrongType, arg: "url", says: "is a number, want a string"},
		{name: "bad duration", given: map[string]any{"url": "u", "timeout": "soon"},
			problem: plugins.WrongType, arg: "timeout", says: "is a string, want a duration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			given := map[string]any{}
			for k, v := range tc.given {
				given[k] = v
			}
			args, assumed, err := plugins.ApplyArgs(probe, given)
			if tc.problem != 0 {
				var ae *plugins.ArgError
				if !errors.As(err, &ae) || ae.Problem != tc.problem || ae.Arg != tc.arg || !strings.Contains(err.Error(), tc.says) {
					t.Fatalf("err = %v; want problem %d on %q saying %q", err, tc.problem, tc.arg, tc.says)
				}
				if !strings.Contains(err.Error(), `plugin "probe"`) {
					t.Errorf("err %q does not name the plugin", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(args, tc.args) || !reflect.DeepEqual(assumed, tc.assumed) {
				t.Errorf("ApplyArgs = %v, %v; want %v, %v", args, assumed, tc.args, tc.assumed)
			}
			if !reflect.DeepEqual(given, tc.given) {
				t.Errorf("ApplyArgs wrote into given: %v", given)
			}
		})
	}
}

func TestIssue17CheckDescription(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		arg  plugins.Arg
		says string // "" accepted
	}{
		{"integer is known", plugins.Arg{Name: "n", Type: "integer", Default: 3, HasDefault: true}, ""},
		{"no type is any", plugins.Arg{Name: "n", Default: []any{}, HasDefault: true}, ""},
		{"unknown type refused, nearest named", plugins.Arg{Name: "n", Type: "integr"}, `declares type "integr", which is not a type runbook checks (types: any, string, number, integer, bool, list, object, duration); did you mean "integer"?`},
		{"default of the wrong type", plugins.Arg{Name: "n", Type: "integer", Default: 2.5, HasDefault: true}, "declares a default that is a number, not an integer"},
		{"default of a bad duration", plugins.Arg{Name: "d", Type: "duration", Default: "soon", HasDefault: true}, "declares a default that is a string, not a duration"},
		{"no name", plugins.Arg{Type: "string"}, "an argument is declared without a name"},
		{"enum with a fitting default", plugins.Arg{Name: "l", Type: "string", Enum: []any{"low", "high"}, Default: "low", HasDefault: true}, ""},
		{"default outside the enum", plugins.Arg{Name: "l", Type: "string", Enum: []any{"low", "high"}, Default: "mid", HasDefault: true}, `declares a default that is "mid", not one of "low", "high"`},
		{"enum value of the wrong type", plugins.Arg{Name: "l", Type: "string", Enum: []any{"low", 2}}, "declares enum value 2 that is a number, not a string"},
		{"bounds on a number", plugins.Arg{Name: "n", Type: "number", Min: ptr(0), Max: ptr(1), Default: 0.5, HasDefault: true}, ""},
		{"default above max", plugins.Arg{Name: "n", Type: "integer", Max: ptr(5), Default: 9, HasDefault: true}, "declares a default that is 9, not at most 5"},
		{"min above max", plugins.Arg{Name: "n", Type: "integer", Min: ptr(5), Max: ptr(1)}, "declares min 5 above max 1"},
		{"required with a default", plugins.Arg{Name: "a", Type: "string", Required: true, Default: "x", HasDefault: true}, "declares a default for a required argument: a chart that leaves it out gets the default, so it is not required; drop Required, or the default"},
		{"bounds on a string", plugins.Arg{Name: "s", Type: "string", Min: ptr(1)}, "declares min or max on a string; bounds are for a number or an integer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := plugins.CheckDescription(plugins.Description{Name: "probe", Args: []plugins.Arg{tc.arg}})
			if tc.says == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), `plugin "probe"`) {
				t.Errorf("err = %v; want one naming the plugin and saying %q", err, tc.says)
			}
		})
	}
	twice := plugins.Description{Name: "probe", Args: []plugins.Arg{{Name: "a"}, {Name: "a"}}}
	if err := plugins.CheckDescription(twice); err == nil || !strings.Contains(err.Error(), `argument "a": declared twice`) {
		t.Errorf("twice: %v", err)
	}
}

func ptr(f float64) *float64 { return &f }

// TestIssue17ApplyArgsEnumAndBounds: a given value outside an enum or the
// bounds is refused, saying what is allowed; an enum matches numbers by
// value (a chart's 2 is a declared 2.0).
func TestIssue17ApplyArgsEnumAndBounds(t *testing.T) {
	t.Parallel()
	d := plugins.Description{Name: "probe", Args: []plugins.Arg{
		{Name: "level", Type: "string", Enum: []any{"low", "high"}},
		{Name: "n", Type: "integer", Min: ptr(1), Max: ptr(5)},
		{Name: "ratio", Type: "number", Enum: []any{0.5, 2.0}},
	}}
	for _, tc := range []struct {
		given map[string]any
		says  string // "" accepted
	}{
		{map[string]any{"level": "high", "n": 5, "ratio": 2}, ""},
		{map[string]any{"n": 1}, ""},
		{map[string]any{"level": "mid"}, `argument "level": is "mid", want one of "low", "high"`},
		{map[string]any{"n": 6}, `argument "n": is 6, want at most 5`},
		{map[string]any{"n": 0}, `argument "n": is 0, want at least 1`},
		{map[string]any{"ratio": 1}, `argument "ratio": is 1, want one of 0.5, 2`},
	} {
		_, _, err := plugins.ApplyArgs(d, tc.given)
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("%v: %v", tc.given, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("%v: err = %v, want %q", tc.given, err, tc.says)
		}
	}
}

// TestIssue17CheckArgsNamesEveryProblem: before a run, every refusal is
// named at once, in ApplyArgs's order, and an argument whose value only
// the run knows counts as given with its value unjudged.
func TestIssue17CheckArgsNamesEveryProblem(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		given map[string]any
		later []string
		want  []string // "arg problem"
	}{
		{name: "all well", given: map[string]any{"url": "u"}},
		{name: "a run-time value is given, not judged", later: []string{"url", "retries"}},
		{name: "every problem",
			given: map[string]any{"urll": "u", "retries": "two", "timeout": 5},
			want:  []string{"retries 3", "timeout 3", "urll 1", "url 2"}},
		{name: "a run-time unknown name is still refused", later: []string{"url", "nope"},
			want: []string{"nope 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, e := range plugins.CheckArgs(probe, tc.given, tc.later) {
				got = append(got, e.Arg+" "+string(rune('0'+e.Problem)))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			// ApplyArgs refuses the first of them, or none.
			if len(tc.later) == 0 {
				_, _, err := plugins.ApplyArgs(probe, tc.given)
				var ae *plugins.ArgError
				if (err == nil) != (len(tc.want) == 0) || (err != nil && (!errors.As(err, &ae) || ae.Arg+" "+string(rune('0'+ae.Problem)) != tc.want[0])) {
					t.Errorf("ApplyArgs: %v, want the first of %v", err, tc.want)
				}
			}
		})
	}
}

// TestCutMessageKeepsUTF8AndSaysSo: a message past MaxMessageBytes is cut
// at a rune's start (a cut inside é would send bytes protobuf refuses) and
// says how much was cut; one within the bound is as it was.
func TestCutMessageKeepsUTF8AndSaysSo(t *testing.T) {
	if got := plugins.CutMessage("fine"); got != "fine" {
		t.Errorf("CutMessage(fine) = %q", got)
	}
	long := strings.Repeat("é", plugins.MaxMessageBytes) // 2 bytes a rune
	got := plugins.CutMessage("x" + long)
	if !utf8.ValidString(got) || !strings.Contains(got, "…(cut: ") || len(got) > plugins.MaxMessageBytes+100 {
		t.Errorf("CutMessage of %d bytes = %d bytes, valid UTF-8 %v, ends %q", len(long)+1, len(got), utf8.ValidString(got), got[len(got)-60:])
	}
}

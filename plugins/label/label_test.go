package label

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func ptr[T any](v T) *T { return &v }

func TestOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		settlement Settlement
		facts      *Facts
		want       Outcome
	}{
		// Row 1: an exit code, and it is 0.
		{"exit 0 returned", Returned, &Facts{OK: ptr(true), ExitCode: ptr(0)}, Outcome{Label: Completed, ExitCode: ptr(0)}},
		{"exit 0 with ok false is still completed", Returned, &Facts{OK: ptr(false), ExitCode: ptr(0)}, Outcome{Label: Completed, ExitCode: ptr(0)}},
		{"exit 0 wins over threw", Threw, &Facts{ExitCode: ptr(0)}, Outcome{Label: Completed, ExitCode: ptr(0)}},
		{"exit 0 wins over not-entered", NotEntered, &Facts{ExitCode: ptr(0)}, Outcome{Label: Completed, ExitCode: ptr(0)}},
		// Row 2: an exit code, not 0.
		{"exit 7", Returned, &Facts{OK: ptr(false), ExitCode: ptr(7)}, Outcome{Label: CompletedWithFailure, ExitCode: ptr(7)}},
		{"exit 7 with ok true", Returned, &Facts{OK: ptr(true), ExitCode: ptr(7)}, Outcome{Label: CompletedWithFailure, ExitCode: ptr(7)}},
		{"negative exit code", Returned, &Facts{ExitCode: ptr(-9)}, Outcome{Label: CompletedWithFailure, ExitCode: ptr(-9)}},
		{"exit code wins over serviceError", Returned, &Facts{ServiceError: true, ExitCode: ptr(3)}, Outcome{Label: CompletedWithFailure, ExitCode: ptr(3)}},
		{"exit 0 wins over serviceError", Returned, &Facts{ServiceError: true, ExitCode: ptr(0)}, Outcome{Label: Completed, ExitCode: ptr(0)}},
		// Row 3: serviceError, no exit code.
		{"serviceError", Returned, &Facts{ServiceError: true}, Outcome{Label: OutcomeUnknown, ServiceError: true}},
		{"serviceError with ok false", Returned, &Facts{OK: ptr(false), ServiceError: true}, Outcome{Label: OutcomeUnknown, ServiceError: true}},
		{"serviceError wins over ok true", Returned, &Facts{OK: ptr(true), ServiceError: true}, Outcome{Label: OutcomeUnknown, ServiceError: true}},
		// Row 4: ok true, no exit code — never completed.
		{"ok true is reported-success", Returned, &Facts{OK: ptr(true)}, Outcome{Label: ReportedSuccess}},
		{"ok true after threw", Threw, &Facts{OK: ptr(true)}, Outcome{Label: ReportedSuccess}},
		// Row 5: ok false, no exit code, no service error.
		{"ok false", Returned, &Facts{OK: ptr(false)}, Outcome{Label: ReportedFailure}},
		{"killed by a signal", Returned, &Facts{OK: ptr(false), TerminatedBy: "SIGKILL"}, Outcome{Label: ReportedFailure}},
		// Rows 6-8: no facts with an outcome — the settlement decides.
		{"no facts returned", Returned, nil, Outcome{Label: LabelReturned}},
		{"no facts threw", Threw, nil, Outcome{Label: OutcomeUnknown}},
		{"no facts not-entered", NotEntered, nil, Outcome{Label: Submitted}},
		{"empty facts returned", Returned, &Facts{}, Outcome{Label: LabelReturned}},
		{"terminatedBy alone returned", Returned, &Facts{TerminatedBy: "SIGTERM"}, Outcome{Label: LabelReturned}},
		{"terminatedBy alone threw", Threw, &Facts{TerminatedBy: "SIGTERM"}, Outcome{Label: OutcomeUnknown}},
		{"terminatedBy alone not-entered", NotEntered, &Facts{TerminatedBy: "SIGTERM"}, Outcome{Label: Submitted}},
		// A settlement nobody knows says nothing certain.
		{"unknown settlement", Settlement("exploded"), nil, Outcome{Label: OutcomeUnknown}},
		{"empty settlement", Settlement(""), &Facts{}, Outcome{Label: OutcomeUnknown}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Of(tc.settlement, tc.facts)
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("Of(%q, %+v) = %s, want %s", tc.settlement, tc.facts, show(got), show(tc.want))
			}
			if !Fits(got.Label, got.ExitCode) {
				t.Fatalf("Of filed %s, which Fits refuses", show(got))
			}
		})
	}
}

func TestOfDoesNotAliasFacts(t *testing.T) {
	t.Parallel()
	f := &Facts{ExitCode: ptr(4)}
	out := Of(Returned, f)
	*f.ExitCode = 0
	if *out.ExitCode != 4 {
		t.Fatalf("outcome exit code changed with the facts: %d", *out.ExitCode)
	}
}

func TestLabelsOrder(t *testing.T) {
	t.Parallel()
	want := []string{"completed", "completed-with-failure", "outcome-unknown", "reported-success", "reported-failure", "returned", "submitted"}
	if len(Labels) != len(want) {
		t.Fatalf("Labels has %d entries, want %d", len(Labels), len(want))
	}
	for i, l := range Labels {
		if string(l) != want[i] {
			t.Errorf("Labels[%d] = %q, want %q", i, l, want[i])
		}
	}
}

func TestIsExitCode(t *testing.T) {
	t.Parallel()
	type named float64
	tests := []struct {
		name string
		v    any
		want bool
		code int
	}{
		{"int 0", 0, true, 0},
		{"int negative", -1, true, -1},
		{"int8", int8(-128), true, -128},
		{"uint8", uint8(255), true, 255},
		{"uint32 windows status", uint32(3221225477), true, 3221225477},
		{"int64", int64(42), true, 42},
		{"uint64 too large", uint64(math.MaxUint64), false, 0},
		{"float64 whole", 7.0, true, 7},
		{"float64 negative whole", -2.0, true, -2},
		{"float64 negative zero", math.Copysign(0, -1), true, 0},
		{"float32 whole", float32(3), true, 3},
		{"named float whole", named(5), true, 5},
		{"float64 fraction", 1.5, false, 0},
		{"float32 fraction", float32(0.5), false, 0},
		{"NaN", math.NaN(), false, 0},
		{"+Inf", math.Inf(1), false, 0},
		{"-Inf", math.Inf(-1), false, 0},
		{"float too large for int", 1e300, false, 0},
		{"float at 2^63", math.Ldexp(1, 63), false, 0},
		{"json.Number whole", json.Number("12"), true, 12},
		{"json.Number float whole", json.Number("12.0"), true, 12},
		{"json.Number fraction", json.Number("1.5"), false, 0},
		{"json.Number garbage", json.Number("x"), false, 0},
		// Regression: ExitCodeOf parsed a json.Number with strconv, which
		// reads Go's hex floats, so json.Number("0x1p4") was exit code 16;
		// it is no JSON number.
		{"issue-jsonv json.Number hex float", json.Number("0x1p4"), false, 0},
		{"string", "7", false, 0},
		{"bool", true, false, 0},
		{"nil", nil, false, 0},
		{"map", map[string]any{}, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := IsExitCode(tc.v); got != tc.want {
				t.Fatalf("IsExitCode(%#v) = %v, want %v", tc.v, got, tc.want)
			}
			code, ok := ExitCodeOf(tc.v)
			if ok != tc.want || code != tc.code {
				t.Fatalf("ExitCodeOf(%#v) = %d, %v; want %d, %v", tc.v, code, ok, tc.code, tc.want)
			}
		})
	}
}

func TestFits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label Label
		code  *int
		want  bool
	}{
		{Completed, ptr(0), true},
		{Completed, ptr(1), false},
		{Completed, nil, false},
		{CompletedWithFailure, ptr(7), true},
		{CompletedWithFailure, ptr(-1), true},
		{CompletedWithFailure, ptr(0), false},
		{CompletedWithFailure, nil, false},
		{OutcomeUnknown, nil, true},
		{OutcomeUnknown, ptr(0), false},
		{ReportedSuccess, nil, true},
		{ReportedSuccess, ptr(0), false},
		{ReportedFailure, ptr(1), false},
		{LabelReturned, nil, true},
		{Submitted, nil, true},
		{Submitted, ptr(2), false},
	}
	for _, tc := range tests {
		if got := Fits(tc.label, tc.code); got != tc.want {
			t.Errorf("Fits(%q, %s) = %v, want %v", tc.label, showCode(tc.code), got, tc.want)
		}
	}
}

func TestWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label Label
		code  *int
		want  string
	}{
		{Completed, ptr(0), "completed"},
		{CompletedWithFailure, ptr(7), "completed with failure, exit 7"},
		{CompletedWithFailure, ptr(-2), "completed with failure, exit -2"},
		{CompletedWithFailure, nil, "completed with failure"},
		{OutcomeUnknown, nil, "outcome unknown"},
		{OutcomeUnknown, ptr(3), "outcome unknown"},
		{ReportedSuccess, nil, "reported success"},
		{ReportedFailure, ptr(1), "reported failure"},
		{LabelReturned, nil, "returned"},
		{Submitted, nil, "submitted"},
	}
	for _, tc := range tests {
		if got := Words(tc.label, tc.code); got != tc.want {
			t.Errorf("Words(%q, %s) = %q, want %q", tc.label, showCode(tc.code), got, tc.want)
		}
	}
}

func TestFactsUnmarshalDropsWhatIsNotAnExitCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		json string
		want Facts
	}{
		{"whole", `{"ok":false,"exitCode":7}`, Facts{OK: ptr(false), ExitCode: ptr(7)}},
		{"whole as float", `{"exitCode":7.0}`, Facts{ExitCode: ptr(7)}},
		{"fraction", `{"ok":false,"exitCode":1.5}`, Facts{OK: ptr(false)}},
		{"string", `{"exitCode":"7"}`, Facts{}},
		{"null", `{"exitCode":null,"ok":null}`, Facts{}},
		{"huge", `{"exitCode":1e300}`, Facts{}},
		{"negative", `{"exitCode":-15,"terminatedBy":"SIGTERM"}`, Facts{ExitCode: ptr(-15), TerminatedBy: "SIGTERM"}},
		{"service", `{"serviceError":true}`, Facts{ServiceError: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var f Facts
			if err := json.Unmarshal([]byte(tc.json), &f); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(f, tc.want) {
				t.Fatalf("got %s, want %s", show(f), show(tc.want))
			}
		})
	}
	var f Facts
	if err := json.Unmarshal([]byte(`{"ok":"yes"}`), &f); err == nil {
		t.Fatal("ok of the wrong type was accepted")
	}
}

// A 1.5 decoded from a runner's JSON is no exit code: the settlement decides.
func TestFractionalExitCodeFromJSONFallsThrough(t *testing.T) {
	t.Parallel()
	var c Call
	if err := json.Unmarshal([]byte(`{"path":"collect","settlement":"returned","facts":{"exitCode":1.5}}`), &c); err != nil {
		t.Fatal(err)
	}
	if got := Of(c.Settlement, c.Facts); got.Label != LabelReturned || got.ExitCode != nil {
		t.Fatalf("got %s, want returned without an exit code", show(got))
	}
}

package assessment

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func absences(n int) []Absence {
	out := make([]Absence, n)
	for i := range out {
		out[i] = Absence{Stage: fmt.Sprintf("s%02d", i+1)}
	}
	return out
}

func assumedValues(n int) []Assumed {
	out := make([]Assumed, n)
	for i := range out {
		// One owner each: an owner's values share one clause, and these
		// are here to count clauses.
		out[i] = Assumed{Name: fmt.Sprintf("v%02d", i+1), Value: i + 1, By: fmt.Sprintf("r%02d", i+1)}
	}
	return out
}

func absenceClauses(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf(`stage "s%02d" declared it found nothing`, i))
	}
	return out
}

func assumedClauses(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf(`v%02d = %d was assumed by r%02d's rule, not given by you`, i, i, i))
	}
	return out
}

func TestLineCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		summary Summary
		clauses []string
	}{
		{"12 clauses: all printed", Summary{Absences: absences(12)}, absenceClauses(1, 12)},
		{"13 clauses: 12 and one more", Summary{Absences: absences(13)},
			append(absenceClauses(1, 12), "1 more reason is in the run's record")},
		{"20 clauses: 12 and eight more", Summary{Absences: absences(20)},
			append(absenceClauses(1, 12), "8 more reasons are in the run's record")},
		{"15 assumed values are never cut", Summary{Assumed: assumedValues(15)}, assumedClauses(15)},
		{"15 assumed and 14 others: all assumed, 12 others, two more",
			Summary{Assumed: assumedValues(15), Absences: absences(14)},
			append(append(assumedClauses(15), absenceClauses(1, 12)...), "2 more reasons are in the run's record")},
		{"ask's question does not count toward the 12",
			Summary{Paused: true, Absences: absences(12)},
			append([]string{"the run paused to ask for input"}, absenceClauses(1, 12)...)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := Assess(tc.summary)
			want := a.Standing.Opening() + strings.Join(tc.clauses, "; ") + "."
			if a.Line != want {
				t.Errorf("line:\n got %s\nwant %s", a.Line, want)
			}
		})
	}
}

func TestSecretNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-<value>"
	tests := []struct {
		name string
		s    Summary
	}{
		{"alone", Summary{Runbook: "r", Assumed: []Assumed{{Name: "password", Value: secret, Secret: true}}}},
		{"beside a plain value", Summary{Runbook: "r", Assumed: []Assumed{
			{Name: "user", Value: "ops"}, {Name: "token", Value: map[string]any{"k": secret}, Secret: true}}}},
		{"when paused", Summary{Paused: true, Question: "q", Assumed: []Assumed{{Name: "password", Value: secret, Secret: true}}}},
		{"past the cap", Summary{Absences: absences(20), Assumed: []Assumed{{Name: "password", Value: secret, Secret: true}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resp := Annotate(Request{Summary: tc.s})
			b, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			raw := string(b)
			for _, needle := range []string{secret, "s3cr3t", `s3cr3t-\u003cvalue\u003e`} {
				if strings.Contains(raw, needle) {
					t.Errorf("response holds %q: %s", needle, raw)
				}
			}
			if line := resp.Assessment.Line; !strings.Contains(line, "(value hidden) was assumed by") &&
				!strings.Contains(line, "(value hidden) were assumed by") {
				t.Errorf("line does not say the value is hidden: %s", resp.Assessment.Line)
			}
		})
	}
}

// readMarshaler proves a secret's value is never read: encoding it fails
// the test.
type readMarshaler struct{ t *testing.T }

func (m readMarshaler) MarshalJSON() ([]byte, error) {
	m.t.Error("a secret value was encoded")
	return []byte(`"leak"`), nil
}

func TestSecretValueNeverRead(t *testing.T) {
	t.Parallel()
	a := Assess(Summary{Runbook: "r", Assumed: []Assumed{{Name: "p", Value: readMarshaler{t}, Secret: true}}})
	if a.Line != `Not sure — p (value hidden) was assumed by r's rule, not given by you.` {
		t.Errorf("line = %s", a.Line)
	}
}

type panicMarshaler struct{}

func (panicMarshaler) MarshalJSON() ([]byte, error) { panic("boom") }

func TestUnwritableValues(t *testing.T) {
	t.Parallel()
	const want = `Not sure — v (a value that cannot be written out) was assumed by r's rule, not given by you.`
	for name, v := range map[string]any{
		"NaN":               math.NaN(),
		"func":              func() {},
		"channel":           make(chan int),
		"panicking marshal": panicMarshaler{},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			a := Assess(Summary{Runbook: "r", Assumed: []Assumed{{Name: "v", Value: v}}})
			if a.Line != want {
				t.Errorf("line = %s", a.Line)
			}
		})
	}
}

func TestNilValueIsNull(t *testing.T) {
	t.Parallel()
	a := Assess(Summary{Runbook: "r", Assumed: []Assumed{{Name: "v"}}})
	if want := `Not sure — v = null was assumed by r's rule, not given by you.`; a.Line != want {
		t.Errorf("line = %s, want %s", a.Line, want)
	}
}

func TestLineOfRefusesAMismatch(t *testing.T) {
	t.Parallel()
	s := Summary{Runbook: "r", Assumed: []Assumed{{Name: "w", Value: "2h"}}}
	good := Assess(s)
	tests := []struct {
		name string
		edit func(a *Assessment)
		s    Summary
	}{
		{"another version", func(a *Assessment) { a.Version = LineVersion + 1 }, s},
		{"version zero", func(a *Assessment) { a.Version = 0 }, s},
		{"another standing", func(a *Assessment) { a.Standing = Known }, s},
		{"an unknown standing", func(a *Assessment) { a.Standing = "sure" }, s},
		{"a reason the summary does not hold", func(a *Assessment) { a.Reasons = append(a.Reasons, StoppedEarly) }, s},
		{"a missing reason", func(a *Assessment) { a.Reasons = []Reason{} }, s},
		{"other checks", func(a *Assessment) { a.Checked = []CheckRun{{Check: "label", Ran: 1, Of: 1}} }, s},
		{"another summary", func(*Assessment) {}, Summary{HonestyRan: []string{"label"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := good
			a.Reasons = append([]Reason(nil), good.Reasons...)
			tc.edit(&a)
			if got := LineOf(a, tc.s); got != "" {
				t.Errorf("LineOf = %q, want \"\"", got)
			}
		})
	}
}

func TestConsistentNeverClaimsMore(t *testing.T) {
	t.Parallel()
	line := Assess(Summary{HonestyRan: []string{"label", "coverage", "verdicts"}}).Line
	body := strings.TrimPrefix(line, Consistent.Opening())
	for _, word := range []string{"known", "Known", "verified", "Verified"} {
		if strings.Contains(body, word) {
			t.Errorf("consistent line says %q: %s", word, line)
		}
	}
	if !strings.HasSuffix(line, "; this is not a verification.") {
		t.Errorf("consistent line does not end by saying it is not a verification: %s", line)
	}
}

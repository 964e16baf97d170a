package coverage

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestPeriodVerdict(t *testing.T) {
	t.Parallel()
	const (
		d1  = "2024-05-01T00:00:00Z"
		d2  = "2024-05-02T00:00:00Z"
		d3  = "2024-05-03T00:00:00Z"
		d4  = "2024-05-04T00:00:00Z"
		d2p = "2024-05-02T02:00:00+02:00" // the same instant as d2
	)
	span := func(from, to string) *Span { return &Span{From: from, To: to} }
	tests := []struct {
		name    string
		queried Span
		held    *Span
		want    Verdict
	}{
		{"held unknown", Span{d1, d2}, nil, Unknown},
		{"held equals queried", Span{d1, d2}, span(d1, d2), Covered},
		{"held wider", Span{d2, d3}, span(d1, d4), Covered},
		{"held ends exactly at queried end", Span{d1, d3}, span(d1, d3), Covered},
		{"same instant in another zone counts", Span{d1, d2}, span(d1, d2p), Covered},
		{"held entirely before", Span{d3, d4}, span(d1, d2), NotHeld},
		{"held entirely after", Span{d1, d2}, span(d3, d4), NotHeld},
		{"touching at queried start is not disjoint", Span{d2, d3}, span(d1, d2), PartlyHeld},
		{"touching at queried end is not disjoint", Span{d1, d2}, span(d2, d3), PartlyHeld},
		{"overlap at start", Span{d1, d3}, span(d2, d4), PartlyHeld},
		{"held inside queried", Span{d1, d4}, span(d2, d3), PartlyHeld},
		{"an instant queried, held", Span{d2, d2}, span(d1, d3), Covered},
		{"an instant queried, not held", Span{d4, d4}, span(d1, d3), NotHeld},
		{"zoneless time: unknown", Span{"2024-05-01T00:00:00", d2}, span(d1, d2), Unknown},
		{"from after to: unknown", Span{d2, d1}, span(d1, d2), Unknown},
		{"held backwards: unknown", Span{d1, d2}, span(d3, d1), Unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := PeriodVerdict(Period{Queried: tc.queried, Held: tc.held}); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParsePeriodRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, json string }{
		{"zoneless queried", `{"queried":{"from":"2024-05-01T00:00:00","to":"2024-05-02T00:00:00Z"},"held":"unknown"}`},
		{"date only", `{"queried":{"from":"2024-05-01","to":"2024-05-02"},"held":"unknown"}`},
		{"from after to", `{"queried":{"from":"2024-05-02T00:00:00Z","to":"2024-05-01T00:00:00Z"},"held":"unknown"}`},
		{"held from after to", `{` + queriedDay + `,"held":{"from":"2024-05-02T00:00:00Z","to":"2024-05-01T00:00:00Z"}}`},
		{"held missing", `{` + queriedDay + `}`},
		{"held another word", `{` + queriedDay + `,"held":"all of it"}`},
		{"queried missing", `{"held":"unknown"}`},
		{"from a number", `{"queried":{"from":1,"to":"2024-05-02T00:00:00Z"},"held":"unknown"}`},
		{"read_at zoneless", `{` + queriedDay + `,"held":"unknown","read_at":"2024-05-02T00:00:00"}`},
		{"read_at a number", `{` + queriedDay + `,"held":"unknown","read_at":5}`},
		{"not an object", `["2024-05-01T00:00:00Z"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if p, err := parsePeriod(j(t, tc.json)); err == nil {
				t.Fatalf("accepted %s as %+v", tc.json, p)
			}
		})
	}
}

func TestLeast(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []Verdict
		want Verdict
	}{
		{nil, ""},
		{[]Verdict{Covered}, Covered},
		{[]Verdict{Covered, Unknown}, Unknown},
		{[]Verdict{Unknown, PartlyHeld, Covered}, PartlyHeld},
		{[]Verdict{PartlyHeld, NotHeld}, NotHeld},
		{[]Verdict{Covered, "made-up"}, Unknown},
		{[]Verdict{"made-up"}, Unknown},
	}
	for _, tc := range tests {
		if got := Least(tc.in...); got != tc.want {
			t.Errorf("Least(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPeriodJSON(t *testing.T) {
	t.Parallel()
	for _, p := range []Period{
		{Queried: Span{"2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z"}, Verdict: Unknown},
		{Queried: Span{"2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z"}, Held: &Span{"2024-05-01T00:00:00Z", "2024-05-03T00:00:00Z"}, ReadAt: "2024-05-03T00:00:00Z", Verdict: Covered},
	} {
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var back Period
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, p) {
			t.Fatalf("period changed over JSON: %v\n%s\n%s", err, b, show(back))
		}
	}
	var p Period
	if err := json.Unmarshal([]byte(`{"queried":{"from":"a","to":"b"},"held":"sometimes"}`), &p); err == nil {
		t.Fatal("held word other than unknown accepted")
	}
}

func TestClauseWords(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, v := range []Verdict{NotHeld, PartlyHeld, Unknown} {
		c := Clause(v)
		if c == "" || seen[c] {
			t.Fatalf("clause for %q is empty or shared: %q", v, c)
		}
		seen[c] = true
	}
	if Clause(Covered) != "" || Clause("nonsense") != "" {
		t.Fatal("covered or a non-verdict has a clause")
	}
}

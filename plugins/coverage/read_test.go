package coverage

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// j decodes JSON as the runtime would hand a stage result over.
func j(t testing.TB, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return v
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

const (
	queriedDay = `"queried":{"from":"2024-05-01T00:00:00Z","to":"2024-05-02T00:00:00Z"}`
	heldAll    = `"held":{"from":"2024-04-01T00:00:00Z","to":"2024-06-01T00:00:00Z"}`
	heldHalf   = `"held":{"from":"2024-05-01T12:00:00Z","to":"2024-06-01T00:00:00Z"}`
)

func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		json      string
		wantOK    bool
		want      Reading
		wantWarns []string // parts warned about, in order
	}{
		{
			name:   "bare absence",
			json:   `{"af_absent":true,"looked_for":"incidents on db-1","checked":["pagerduty"]}`,
			wantOK: true,
			want:   Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, LookedFor: "incidents on db-1", Checked: []Item{{What: "pagerduty"}}}}},
		},
		{
			name: "absence with every field",
			json: `{"af_absent":true,"looked_for":"x","checked":[{"what":"a","why":"primary"}],"not_checked":["b"],"cannot_cover":[{"what":"c","why":"no access"}],` +
				`"try_instead":"  ask the DBA  ","try_instead_tool":{"tool":"dba-query","why":"it sees replicas"},"provenance":{"source":"pd","measured_at":"2024-05-01T00:00:00+02:00"},` +
				`"period":{` + queriedDay + `,` + heldAll + `,"read_at":"2024-05-02T00:00:01Z"},"note":"n"}`,
			wantOK: true,
			want: Reading{Status: StatusAbsent, Declared: []Declaration{{
				Kind: KindAbsence, LookedFor: "x",
				Checked:        []Item{{What: "a", Why: "primary"}},
				NotChecked:     []Item{{What: "b"}},
				CannotCover:    []Item{{What: "c", Why: "no access"}},
				TryInstead:     "ask the DBA",
				TryInsteadTool: &ToolHint{Tool: "dba-query", Why: "it sees replicas"},
				Provenance:     &Provenance{Source: "pd", MeasuredAt: "2024-05-01T00:00:00+02:00"},
				Period: &Period{
					Queried: Span{"2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z"},
					Held:    &Span{"2024-04-01T00:00:00Z", "2024-06-01T00:00:00Z"},
					ReadAt:  "2024-05-02T00:00:01Z", Verdict: Covered,
				},
				Note: "n",
			}}},
		},
		{
			name:   "bare ledger has no status",
			json:   `{"af_coverage":{"checked":["eu-west-1"],"not_checked":[{"what":"us-east-1","why":"no creds"}],"note":"regions"},"result":[1,2]}`,
			wantOK: true,
			want: Reading{Declared: []Declaration{{Kind: KindLedger, Checked: []Item{{What: "eu-west-1"}},
				NotChecked: []Item{{What: "us-east-1", Why: "no creds"}}, Note: "regions"}}},
		},
		{
			name:   "ledger bounding an absence: outer first, status absent",
			json:   `{"af_coverage":{"checked":["eu"]},"result":{"af_absent":true,"checked":["pd"],"looked_for":"x"}}`,
			wantOK: true,
			want: Reading{Status: StatusAbsent, Declared: []Declaration{
				{Kind: KindLedger, Checked: []Item{{What: "eu"}}},
				{Kind: KindAbsence, Checked: []Item{{What: "pd"}}, LookedFor: "x"},
			}},
		},
		{
			name:   "only one level is read",
			json:   `{"af_coverage":{"checked":["outer"]},"result":{"af_coverage":{"checked":["inner"]},"result":{"af_absent":true,"checked":["deep"]}}}`,
			wantOK: true,
			want:   Reading{Declared: []Declaration{{Kind: KindLedger, Checked: []Item{{What: "outer"}}}}},
		},
		{
			name:   "empty ledger",
			json:   `{"af_coverage":{}}`,
			wantOK: true,
			want:   Reading{Declared: []Declaration{{Kind: KindLedger}}},
		},
		{
			name:   "in_progress with counts",
			json:   `{"af_coverage":{"in_progress":[{"what":"backup job","count":3},"resync",{"what":"scrub","why":"weekly","count":null}]},"result":null}`,
			wantOK: true,
			want: Reading{Declared: []Declaration{{Kind: KindLedger, InProgress: []InProgressItem{
				{What: "backup job", Count: 3}, {What: "resync"}, {What: "scrub", Why: "weekly"}}}}},
		},
		// An absence that names no place it looked was read as ordinary
		// data in silence: the run stood Consistent over it.
		{name: "af_absent with empty checked is ordinary, with a warning", json: `{"af_absent":true,"checked":[],"looked_for":"x"}`, wantWarns: []string{"checked"}},
		{name: "af_absent with no checked is ordinary, with a warning", json: `{"af_absent":true,"looked_for":"x"}`, wantWarns: []string{"checked"}},
		{name: "af_absent with null checked is ordinary, with a warning", json: `{"af_absent":true,"checked":null}`, wantWarns: []string{"checked"}},
		{name: "af_absent false is ordinary", json: `{"af_absent":false,"checked":["a"]}`},
		{name: "af_absent as a string is ordinary", json: `{"af_absent":"true","checked":["a"]}`},
		{name: "JSON held as text is ordinary", json: `"{\"af_absent\":true,\"checked\":[\"a\"]}"`},
		{name: "absence nested in a domain object is ordinary", json: `{"hosts":{"af_absent":true,"checked":["a"]}}`},
		{name: "absence inside a list is ordinary", json: `[{"af_absent":true,"checked":["a"]}]`},
		{name: "af_coverage null is ordinary", json: `{"af_coverage":null,"result":1}`},
		{name: "af_coverage as a list is ordinary", json: `{"af_coverage":["a"],"result":1}`},
		{name: "a number", json: `3`},
		{name: "null", json: `null`},
		{
			name:      "malformed checked item makes it ordinary, with a warning",
			json:      `{"af_absent":true,"checked":["a",{"why":"no what"}]}`,
			wantWarns: []string{"checked"},
		},
		{
			name:   "null fields count as omitted",
			json:   `{"af_absent":true,"checked":[{"what":"a","why":null,"short":null}],"looked_for":null,"not_checked":null,"cannot_cover":null,"try_instead":null,"try_instead_tool":null,"provenance":null,"period":null,"note":null}`,
			wantOK: true,
			want:   Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, Checked: []Item{{What: "a"}}}}},
		},
		{
			name:   "short and kind go on the record",
			json:   `{"af_absent":true,"checked":[{"what":"pagerduty","short":"pd","kind":"pager"}]}`,
			wantOK: true,
			want:   Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, Checked: []Item{{What: "pagerduty", Short: "pd", Kind: "pager"}}}}},
		},
		{
			name:      "bad period is left off with a warning, the rest is read",
			json:      `{"af_absent":true,"checked":["a"],"period":{"queried":{"from":"2024-05-01T00:00:00","to":"2024-05-02T00:00:00Z"},"held":"unknown"},"note":"kept"}`,
			wantOK:    true,
			want:      Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, Checked: []Item{{What: "a"}}, Note: "kept"}}},
			wantWarns: []string{"period"},
		},
		{
			name:      "in_progress count 0 leaves the list off",
			json:      `{"af_coverage":{"checked":["a"],"in_progress":[{"what":"x","count":2},{"what":"y","count":0}]}}`,
			wantOK:    true,
			want:      Reading{Declared: []Declaration{{Kind: KindLedger, Checked: []Item{{What: "a"}}}}},
			wantWarns: []string{"af_coverage.in_progress"},
		},
		{
			name:      "in_progress count 1.5 leaves the list off",
			json:      `{"af_coverage":{"in_progress":[{"what":"y","count":1.5}]}}`,
			wantOK:    true,
			want:      Reading{Declared: []Declaration{{Kind: KindLedger}}},
			wantWarns: []string{"af_coverage.in_progress"},
		},
		{
			name:      "in_progress not a list",
			json:      `{"af_coverage":{"in_progress":"backup"}}`,
			wantOK:    true,
			want:      Reading{Declared: []Declaration{{Kind: KindLedger}}},
			wantWarns: []string{"af_coverage.in_progress"},
		},
		{
			name: "every malformed optional part of an absence",
			json: `{"af_absent":true,"checked":["a"],"looked_for":3,"not_checked":"b","cannot_cover":[7],"try_instead":false,` +
				`"try_instead_tool":{"why":"no tool"},"provenance":{"source":"pd","measured_at":"yesterday"},"period":"last week","note":{}}`,
			wantOK:    true,
			want:      Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, Checked: []Item{{What: "a"}}}}},
			wantWarns: []string{"looked_for", "not_checked", "cannot_cover", "try_instead", "try_instead_tool", "provenance", "period", "note"},
		},
		{
			name:      "malformed parts of a bounded absence name where they are",
			json:      `{"af_coverage":{"period":{}},"result":{"af_absent":true,"checked":["a"],"period":{}}}`,
			wantOK:    true,
			want:      Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindLedger}, {Kind: KindAbsence, Checked: []Item{{What: "a"}}}}},
			wantWarns: []string{"af_coverage.period", "result.period"},
		},
		{
			name:   "blank try_instead is omitted",
			json:   `{"af_absent":true,"checked":["a"],"try_instead":"   "}`,
			wantOK: true,
			want:   Reading{Status: StatusAbsent, Declared: []Declaration{{Kind: KindAbsence, Checked: []Item{{What: "a"}}}}},
		},
		{
			name:   "a map with both keys is a ledger",
			json:   `{"af_absent":true,"checked":["a"],"af_coverage":{"checked":["b"]}}`,
			wantOK: true,
			want:   Reading{Declared: []Declaration{{Kind: KindLedger, Checked: []Item{{What: "b"}}}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := j(t, tc.json)
			var warns []string
			got, ok := Read(v, func(w Warning) {
				if w.Problem == "" {
					t.Errorf("warning about %s says nothing", w.Part)
				}
				warns = append(warns, w.Part)
			})
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %s\nwant %s", show(got), show(tc.want))
			}
			if !reflect.DeepEqual(warns, tc.wantWarns) {
				t.Fatalf("warned about %q, want %q", warns, tc.wantWarns)
			}
			if m, isMap := v.(map[string]any); isMap && (shapeOf(m) != ordinary) != ok {
				t.Fatalf("shapeOf disagrees with Read")
			}
		})
	}
}

func TestReadGoValues(t *testing.T) {
	t.Parallel()
	// A Go stage may return Go slices and numbers rather than decoded JSON.
	v := map[string]any{
		"af_coverage": map[string]any{
			"checked":     []string{"a", "b"},
			"in_progress": []any{map[string]any{"what": "job", "count": 2}, map[string]any{"what": "job2", "count": uint8(1)}},
		},
	}
	got, ok := Read(v, nil)
	want := Reading{Declared: []Declaration{{Kind: KindLedger, Checked: []Item{{What: "a"}, {What: "b"}},
		InProgress: []InProgressItem{{What: "job", Count: 2}, {What: "job2", Count: 1}}}}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %s, %v", show(got), ok)
	}
}

// TestReadJSONNumberCount is a regression: the reader's own whole-number
// check knew only Go's numeric kinds, so a count decoded with UseNumber
// (json.Number) left the in_progress list off, though label and assessment
// read json.Number. It now asks jsonv.Whole, as they do.
func TestReadJSONNumberCount(t *testing.T) {
	t.Parallel()
	dec := json.NewDecoder(strings.NewReader(`{"af_coverage":{"in_progress":[{"what":"job","count":2}]}}`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	got, ok := Read(v, nil)
	want := Reading{Declared: []Declaration{{Kind: KindLedger, InProgress: []InProgressItem{{What: "job", Count: 2}}}}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("got %s, %v; want %s", show(got), ok, show(want))
	}
}

func TestReadWarningWords(t *testing.T) {
	t.Parallel()
	var got []Warning
	Read(j(t, `{"af_absent":true,"checked":["a"],"period":{"queried":{"from":"2024-05-02T00:00:00Z","to":"2024-05-01T00:00:00Z"},"held":"unknown"}}`),
		func(w Warning) { got = append(got, w) })
	if len(got) != 1 || !strings.Contains(got[0].Problem, "is after") || !strings.Contains(got[0].Problem, "left off the record") {
		t.Fatalf("got %+v", got)
	}
}

func TestOncePerStage(t *testing.T) {
	t.Parallel()
	var once OncePerStage
	var got []Warning
	sink := func(w Warning) { got = append(got, w) }
	bad := j(t, `{"af_absent":true,"checked":["a"],"period":"x","provenance":"y"}`)
	for range 3 {
		Read(bad, once.For("collect", sink))
	}
	Read(bad, once.For("per-volume~3/posture", sink))
	Read(bad, once.For("quiet", nil))
	if len(got) != 2 || got[0].Path != "collect" || got[0].Part != "provenance" || got[1].Path != "per-volume~3/posture" {
		t.Fatalf("got %+v", got)
	}
}

func TestReadingPeriodVerdict(t *testing.T) {
	t.Parallel()
	r, _ := Read(j(t, `{"af_coverage":{"period":{`+queriedDay+`,`+heldAll+`}},"result":{"af_absent":true,"checked":["a"],"period":{`+queriedDay+`,`+heldHalf+`}}}`), nil)
	if v, ok := r.PeriodVerdict(); !ok || v != PartlyHeld {
		t.Fatalf("got %q, %v; want partly-held", v, ok)
	}
	r, _ = Read(j(t, `{"af_coverage":{}}`), nil)
	if v, ok := r.PeriodVerdict(); ok {
		t.Fatalf("no period, got %q", v)
	}
}

func TestItemJSON(t *testing.T) {
	t.Parallel()
	items := []Item{{What: "a"}, {What: "b", Why: "c"}, {What: "d", Short: "s", Kind: "k"}}
	b, err := json.Marshal(items)
	if err != nil {
		t.Fatal(err)
	}
	if want := `["a",{"what":"b","why":"c"},{"what":"d","short":"s","kind":"k"}]`; string(b) != want {
		t.Fatalf("got %s, want %s", b, want)
	}
	var back []Item
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, items) {
		t.Fatalf("got %+v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`[3]`), &back); err == nil {
		t.Fatal("a number read as an item")
	}
}

func TestLedger(t *testing.T) {
	t.Parallel()
	var l Ledger
	r, _ := Read(j(t, `{"af_coverage":{"checked":["eu"]},"result":{"af_absent":true,"checked":["pd"],"looked_for":"x","period":{`+queriedDay+`,"held":"unknown"}}}`), nil)
	l.Add("lookup", r.Declared...)
	l.AddNotChecked("verdicts", Item{What: "3 rows were declined", Why: "the rules could not decide them; nothing was guessed"})
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"path":"lookup","kind":"ledger","checked":["eu"]},` +
		`{"path":"lookup","kind":"absence","lookedFor":"x","checked":["pd"],"period":{"queried":{"from":"2024-05-01T00:00:00Z","to":"2024-05-02T00:00:00Z"},"held":"unknown","verdict":"unknown"}},` +
		`{"path":"verdicts","kind":"ledger","notChecked":[{"what":"3 rows were declined","why":"the rules could not decide them; nothing was guessed"}]}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back Ledger
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, l) {
		t.Fatalf("ledger changed over JSON: %v\n%s\n%s", err, show(back), show(l))
	}
	if v, ok := l.PeriodVerdict(); !ok || v != Unknown {
		t.Fatalf("got %q, %v", v, ok)
	}
}

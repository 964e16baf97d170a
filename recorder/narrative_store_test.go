package recorder

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
)

// units is a named type: not plain, so kept as it is and written through
// encoding/json, like any value appendValue does not write itself.
type units int

func (u units) MarshalJSON() ([]byte, error) {
	return []byte(`"` + strings.Repeat("u", int(u)) + `"`), nil
}

// A value kept as bits or bytes (narrative_store.go) is told exactly as
// appendValue writes the value itself, at every width.
func TestNarrativeKeptValuesAsWritten(t *testing.T) {
	t.Parallel()
	values := []struct {
		name string
		v    any
	}{
		{"nil", nil},
		{"false", false},
		{"true", true},
		{"int", 499},
		{"int negative", -1234567},
		{"int min", math.MinInt64},
		{"int8", int8(-128)},
		{"int16", int16(300)},
		{"int32", int32(1 << 30)},
		{"int64", int64(math.MaxInt64)},
		{"uint", uint(7)},
		{"uint8", uint8(255)},
		{"uint16", uint16(65535)},
		{"uint32", uint32(1 << 31)},
		{"uint64", uint64(math.MaxUint64)},
		{"float64", 3.25},
		{"float64 small", 1e-9},
		{"float64 large", 1e21},
		{"float64 NaN", math.NaN()},
		{"float32", float32(0.1)},
		{"float32 small", float32(1e-7)},
		{"string", "at-risk"},
		{"string escapes", "a \"q\" \\ \n\t\u2028 é"},
		{"string long", strings.Repeat("é", 200)},
		{"string invalid utf8", "a\xffb"},
		{"json.Number", json.Number("12.50")},
		{"json.Number empty", json.Number("")},
		{"named type", units(3)},
		{"map", map[string]any{"b": 2, "a": []any{1, "x"}}},
		{"list", []any{1, "two", nil, 3.5}},
		{"strings", []string{"p", "q"}},
	}
	for _, width := range []int{0, 5, 80} {
		for _, tc := range values {
			events := []Event{
				{Kind: StageStart, Path: "a#0", StageID: "a"},
				{Kind: Read, Key: "r", Value: tc.v},
				{Kind: Write, Key: "w", Value: tc.v},
			}
			lines := narrate(events, WithValueWidth(width))
			v := string(truncateFrom(appendValue(nil, tc.v, width), 0, width))
			want := []string{"Stage a (a#0) ran.", "  read r = " + v, "  wrote w = " + v}
			if !slices.Equal(lines, want) {
				t.Errorf("width %d, %s: got %q, want %q", width, tc.name, lines, want)
			}
		}
	}
}

// A value that is not plain is kept as it is and rendered when Lines is
// called (a stage must not change a value after writing it; if one does,
// Lines tells what it holds then).
func TestNarrativeRendersKeptValuesAtLines(t *testing.T) {
	t.Parallel()
	m := map[string]any{"n": 1}
	n := NewNarrative()
	n.Record(Event{Kind: StageStart, Path: "a#0", StageID: "a"})
	n.Record(Event{Kind: Write, Key: "m", Value: m})
	first := n.Lines()
	m["n"] = 2
	second := n.Lines()
	if first[1] != `  wrote m = {"n":1}` || second[1] != `  wrote m = {"n":2}` {
		t.Errorf("lines %q then %q", first[1], second[1])
	}
}

// Strings of 128 bytes and more take a longer length in the text buffer
// than the others: every field still reads back whole.
func TestNarrativeLongStrings(t *testing.T) {
	t.Parallel()
	long := func(s string) string { return strings.Repeat(s, 130) }
	ev := decide.Evidence{Kind: decide.KindDecide, Chosen: []string{long("c")}}
	events := []Event{
		{Kind: RunStart, StageName: long("r")},
		{Kind: StageStart, Path: long("p"), StageID: long("i"), StageName: long("n"), Subflow: long("s")},
		{Kind: Read, Key: long("k"), Value: long("v")},
		{Kind: Write, Key: long("k"), Deleted: true},
		{Kind: Decision, StageID: "d", StageName: long("D"), Decision: &ev, Branches: ev.Chosen},
		{Kind: BranchStart, Branch: long("b") + "~1", Index: 1, Total: 2},
		{Kind: Error, Path: "e#1", StageID: "e", Err: long("x")},
		{Kind: BranchEnd, Branch: long("b") + "~1"},
		{Kind: RunEnd},
	}
	want := []string{
		"The run of " + long("r") + " started.",
		"Stage " + long("n") + " (" + long("p") + ") ran.",
		"  read " + long("k") + " = " + `"` + strings.Repeat("v", 79) + "…",
		"  deleted " + long("k"),
		"  " + long("D") + " chose " + long("c") + ".",
		"Branch " + long("b") + "~1 (item 1) started.",
		"    Stage e (e#1) failed: " + long("x") + ".",
		"Branch " + long("b") + "~1 ended.",
		"The run completed.",
	}
	if got := narrate(events); !slices.Equal(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Events delivered by a Dispatcher (which hands a Narrative the event by
// pointer) are told as the same events recorded one by one, beside a
// recorder that takes copies and one that panics and is detached.
func TestNarrativeThroughDispatcher(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenFixtures {
		n, c := NewNarrative(), &collect{}
		d := NewDispatcher(&panicky{at: 1}, n, c)
		for _, e := range tc.events() {
			if d.Wants(e.Kind) {
				d.RecordEvent(&e)
			}
		}
		if got, want := n.Lines(), narrate(tc.events()); !slices.Equal(got, want) {
			t.Errorf("%s: through the dispatcher\n%s\nwant\n%s", tc.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(c.events) != len(tc.events()) {
			t.Errorf("%s: the other recorder got %d events, want %d", tc.name, len(c.events), len(tc.events()))
		}
		if p := d.Problems(); len(p) != 1 || p[0].Index != 0 {
			t.Errorf("%s: problems %v", tc.name, p)
		}
	}
}

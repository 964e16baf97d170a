package recorder

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func narrate(events []Event, opts ...NarrativeOption) []string {
	n := NewNarrative(opts...)
	for _, e := range events {
		n.Record(e)
	}
	return n.Lines()
}

func TestNarrativeGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenFixtures {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lines := narrate(tc.events())
			checkGolden(t, "narrative/"+tc.name+".golden", []byte(strings.Join(lines, "\n")+"\n"))
		})
	}
}

func TestNarrativeDeterministic(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenFixtures {
		first := narrate(tc.events())
		for range 5 {
			if again := narrate(tc.events()); !slices.Equal(first, again) {
				t.Fatalf("%s: same events gave different lines", tc.name)
			}
		}
	}
	// map keys are rendered sorted, whatever the map's iteration order
	m := map[string]any{}
	for i := range 30 {
		m[fmt.Sprintf("k%02d", i)] = i
	}
	ev := []Event{{Kind: StageStart, Path: "a#0", StageID: "a"}, {Kind: Write, Path: "a#0", StageID: "a", Key: "m", Value: m}}
	want := narrate(ev, WithValueWidth(0))
	for range 20 {
		if got := narrate(ev, WithValueWidth(0)); !slices.Equal(got, want) {
			t.Fatalf("map rendered differently: %q vs %q", got, want)
		}
	}
	if !strings.Contains(want[1], `{"k00":0,"k01":1,`) {
		t.Errorf("map not rendered sorted: %q", want[1])
	}
}

func TestNarrativeWithoutSteps(t *testing.T) {
	t.Parallel()
	lines := narrate(fixtureDecideFilter(), WithoutSteps())
	for _, l := range lines {
		if strings.Contains(l, "read ") || strings.Contains(l, "wrote ") {
			t.Errorf("step told without steps: %q", l)
		}
	}
	if !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "and chose at-risk.") }) {
		t.Errorf("decision line missing: %q", lines)
	}
}

func TestNarrativeLoopFolding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		passes    int
		keep      int
		wantFold  string // "" when nothing is folded
		wantJumps int    // jump lines told
	}{
		{"short loop told whole", 3, 3, "", 2},
		{"one pass past the bound", 5, 3, "folded pass 4: 1 pass", 3},
		{"50 passes", 50, 3, "folded passes 4 to 49: 46 passes, 92 stage runs; Check chose again 45 times and slow 1 time.", 3},
		{"keep 1", 10, 1, "folded passes 2 to 9: 8 passes", 1},
		{"1000 passes", 1000, 3, "folded passes 4 to 999: 996 passes", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lines := narrate(fixtureLoop(tc.passes), WithLoopPasses(tc.keep))
			var folds, jumps int
			for _, l := range lines {
				if strings.Contains(l, " folded pass") {
					folds++
					if tc.wantFold == "" || !strings.Contains(l, tc.wantFold) {
						t.Errorf("fold line %q, want it to contain %q", l, tc.wantFold)
					}
				}
				if strings.Contains(l, "jumped back") {
					jumps++
				}
			}
			if (folds == 1) != (tc.wantFold != "") || folds > 1 {
				t.Errorf("%d fold lines, want %v:\n%s", folds, tc.wantFold != "", strings.Join(lines, "\n"))
			}
			if jumps != tc.wantJumps {
				t.Errorf("%d jump lines, want %d", jumps, tc.wantJumps)
			}
			// the last pass and what follows the loop are always told
			last := fmt.Sprintf("  read n = %d", tc.passes)
			if !slices.Contains(lines, last) || !strings.HasPrefix(lines[len(lines)-3], "Stage Report") {
				t.Errorf("last pass or the stage after the loop missing:\n%s", strings.Join(lines, "\n"))
			}
		})
	}
}

// A loop inside a loop: the inner loop folds in each outer pass, and the
// outer folding merges the inner summaries.
func TestNarrativeNestedLoops(t *testing.T) {
	t.Parallel()
	s := newScript("Nested")
	for outer := 1; outer <= 6; outer++ {
		s.stage("outer", "Outer", "inner", wr("o", outer))
		for inner := 1; inner <= 6; inner++ {
			s.stage("inner", "Inner", "", wr("i", inner))
			if inner < 6 {
				s.add(s.at(Event{Kind: Loop, Target: "inner", Index: inner, Total: 10}, s.path("inner-loop"), "inner-loop", "Inner loop"))
			}
		}
		if outer < 6 {
			s.add(s.at(Event{Kind: Loop, Target: "outer", Index: outer, Total: 10}, s.path("outer-loop"), "outer-loop", "Outer loop"))
		}
	}
	s.end()
	lines := narrate(s.events, WithoutSteps())
	text := strings.Join(lines, "\n")
	// outer passes 4 and 5 fold, each holding 1 outer stage + 6 inner stages
	if !strings.Contains(text, "Loop Outer loop (outer-loop#") || !strings.Contains(text, "folded passes 4 to 5: 2 passes, 14 stage runs") {
		t.Errorf("outer fold missing or miscounted:\n%s", text)
	}
	// inner loops fold passes 4 to 5 in each of outer passes 1-3 and 6
	if got := strings.Count(text, "Inner loop"); got == 0 {
		t.Errorf("inner loop not told:\n%s", text)
	}
	if got := strings.Count(text, "folded passes 4 to 5: 2 passes, 2 stage runs"); got != 4 {
		t.Errorf("%d inner fold lines, want 4:\n%s", got, text)
	}
}

func TestNarrativeValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		value any
		want  string
	}{
		{"string", "at-risk", `"at-risk"`},
		{"quotes", `a "b" \c`, `"a \"b\" \\c"`},
		{"html", "<a>&", `"<a>&"`},
		{"unicode", "héllo ✓", `"héllo ✓"`},
		{"control", "a\nb\x01", `"a\nb\u0001"`},
		{"int", 95, "95"},
		{"float", 0.5, "0.5"},
		{"float int", 2.0, "2"},
		{"float tiny", 1e-7, "1e-7"},
		{"nil", nil, "null"},
		{"bool", true, "true"},
		{"slice", []any{1, "a", nil}, `[1,"a",null]`},
		{"typed slice", []string{"a", "b"}, `["a","b"]`},
		{"struct", struct{ A int }{3}, `{"A":3}`},
		{"long", strings.Repeat("x", 100), `"` + strings.Repeat("x", 79) + "…"},
		{"long unicode", strings.Repeat("é", 60), `"` + strings.Repeat("é", 39) + "…"},
		{"unmarshalable", make(chan int), "0x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			lines := narrate([]Event{{Kind: Write, Key: "k", Value: tc.value}})
			got := strings.TrimPrefix(lines[0], "  wrote k = ")
			if tc.name == "unmarshalable" {
				if !strings.HasPrefix(got, tc.want) {
					t.Errorf("got %q", got)
				}
				return
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// Lines may be called as the run goes (the events so far) and again after.
func TestNarrativeLinesTwice(t *testing.T) {
	t.Parallel()
	n := NewNarrative()
	events := fixtureLoop(10)
	for _, e := range events[:len(events)/2] {
		n.Record(e)
	}
	half := n.Lines()
	for _, e := range events[len(events)/2:] {
		n.Record(e)
	}
	if full := n.Lines(); len(full) <= len(half) || !slices.Equal(full, narrate(events)) {
		t.Errorf("lines after the run differ from a fresh narrative")
	}
}

func TestEntriesTruncateAcrossChunks(t *testing.T) {
	t.Parallel()
	var l entries
	push := func(from, to int) {
		for i := from; i < to; i++ {
			l.push(entry{index: int32(i)})
		}
	}
	check := func(n int) {
		t.Helper()
		if l.len() != n {
			t.Fatalf("len %d, want %d", l.len(), n)
		}
		for i := range n {
			if got := l.at(i).index; got != int32(i) {
				t.Fatalf("at(%d) = %d", i, got)
			}
		}
	}
	push(0, 1300)
	check(1300)
	for _, n := range []int{1100, 1024, 700, 512, 511, 3, 0} {
		l.truncate(n)
		check(n)
		push(n, n+600)
		check(n + 600)
		l.truncate(n)
	}
}

// A loop whose folded passes straddle the narrative's storage chunks tells
// the same as one that does not.
func TestNarrativeLoopAfterLongPrelude(t *testing.T) {
	t.Parallel()
	prelude := fixtureChain(300)
	prelude = prelude[:len(prelude)-1] // drop RunEnd
	loop := fixtureLoop(200)[1:]       // drop RunStart
	lines := narrate(append(prelude, loop...))
	text := strings.Join(lines, "\n")
	if !strings.Contains(text, "Loop Again folded passes 4 to 199: 196 passes, 392 stage runs; Check chose again 195 times and slow 1 time.") {
		t.Errorf("fold line wrong:\n%s", text[len(text)-2000:])
	}
}

package flow

import (
	"testing"
)

func TestRenderMermaidGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, "render/chart.mmd", []byte(staticChart(t).Mermaid()))
}

func TestRenderDOTGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, "render/chart.dot", []byte(staticChart(t).DOT()))
}

func TestRenderDeterministic(t *testing.T) {
	t.Parallel()
	first := staticChart(t)
	mmd, dot := first.Mermaid(), first.DOT()
	for i := 0; i < 50; i++ {
		c := staticChart(t)
		if got := c.Mermaid(); got != mmd {
			t.Fatalf("build %d: Mermaid differs:\n%s\n--- first\n%s", i, got, mmd)
		}
		if got := c.DOT(); got != dot {
			t.Fatalf("build %d: DOT differs:\n%s\n--- first\n%s", i, got, dot)
		}
	}
}

func TestRenderEscaping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, mermaid, dot string
	}{
		{`plain`, `plain`, `"plain"`},
		{`say "hi"`, `say #quot;hi#quot;`, `"say \"hi\""`},
		{`a\b`, `a\b`, `"a\\b"`},
		{"two\nlines", `two<br/>lines`, `"two\nlines"`},
		{`<b> & #1 | ` + "`c`", `#lt;b#gt; #amp; #35;1 #124; #96;c#96;`, `"<b> & #1 | ` + "`c`" + `"`},
		{"tab\there\r", "tab here", `"tab here"`},
	}
	for _, tc := range tests {
		if got := mermaidText(tc.in); got != tc.mermaid {
			t.Errorf("mermaidText(%q) = %q, want %q", tc.in, got, tc.mermaid)
		}
		if got := dotQuote(tc.in); got != tc.dot {
			t.Errorf("dotQuote(%q) = %q, want %q", tc.in, got, tc.dot)
		}
	}
}

func TestRenderKeysAreUniqueAndSafe(t *testing.T) {
	t.Parallel()
	// "a-b" and "a_b" sanitize alike; the same chart mounted twice keeps
	// its nodes apart by mount id.
	sub := mustBuild(t, New("sub").Stage("x", staticNop))
	c := mustBuild(t, New("k").Stage("a-b", staticNop).Stage("a_b", staticNop).Stage("end", staticNop).
		Subflow("m1", sub, Mount{}).Subflow("m2", sub, Mount{}))
	m := c.renderModel()
	seen := map[string]bool{}
	var walk func(its []rItem)
	walk = func(its []rItem) {
		for _, it := range its {
			key := ""
			if it.node != nil {
				key = it.node.key
			} else {
				key = it.group.key
				walk(it.group.items)
			}
			if seen[key] {
				t.Errorf("key %q used twice", key)
			}
			if key == "end" || sanitizeKey(key) != key {
				t.Errorf("unsafe key %q", key)
			}
			seen[key] = true
		}
	}
	walk(m.items)
	for _, k := range []string{"n_a_b", "n_a_b_2", "n_end", "n_m1__x", "n_m2__x", "sg_n_m1"} {
		if !seen[k] {
			t.Errorf("missing key %q among %v", k, seen)
		}
	}
}

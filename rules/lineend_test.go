package rules

import (
	"strings"
	"testing"
)

// TestTextWithALineEndIsNoEquality: `exec: {command: [id, -u]}` reads
// "0\n" under parse: text, and `id.stdout == "0"` was false with no
// word, so a chart asking whether it ran as root said "not root",
// Consistent, as root; the filter {id.stdout: {eq: "0"}} said the same,
// and `in`, `!=`, ne and notIn with it; `endsWith "active"` over
// systemctl is-active's "active\n" was a plain no too, and so was
// `matches "^active$"`, which grep and Python match (their $ passes over
// a final newline; RE2's does not). Two texts that differ only by
// a line end one of them ends with are a rule error naming both and the
// way to compare them; texts that differ otherwise, or that are equal,
// are judged as before.
func TestTextWithALineEndIsNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"id": map[string]any{"stdout": "0\n"}, "st": map[string]any{"stdout": "active\r\n"}, "u": "1000\n"}
	const why = `differ only by the line end`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`id.stdout == "0"`, `id.stdout == "0": "0\n" and "0" ` + why, false},
		{`id.stdout != "0"`, why, false},
		{`"0" == id.stdout`, why, false},
		{`st.stdout == "active"`, `"active\r\n" and "active" ` + why, false},
		{`id.stdout in ["0", "1"]`, why, false},
		{`id.stdout not in ["0"]`, why, false},
		{`trimSuffix(id.stdout, "\n") == "0"`, "", true},
		{`id.stdout == "0\n"`, "", true},
		{`id.stdout == "1"`, "", false},
		{`id.stdout in ["1", "2"]`, "", false},
		{`u == id.stdout`, "", false},
		{`st.stdout endsWith "active"`, `"active\r\n" ends with "active" but for the line end after it`, false},
		{`st.stdout endsWith "active\r\n"`, "", true},
		{`st.stdout endsWith "failed"`, "", false},
		{`st.stdout startsWith "active"`, "", true},
		{`st.stdout matches "^active$"`, `"active\r\n" matches "^active$" but for the line end after it`, false},
		{`st.stdout matches "^active\\s*$"`, "", true},
		{`st.stdout matches "^failed$"`, "", false},
		{`trim(st.stdout) matches "^active$"`, "", true},
	} {
		out := MustCompile(tc.src).Eval(env)
		if tc.err == "" {
			if out.Err != "" || out.Matched != tc.matched {
				t.Errorf("%s: matched %v err %q, want matched %v and no error", tc.src, out.Matched, out.Err, tc.matched)
			}
			continue
		}
		if out.Matched || !strings.Contains(out.Err, tc.err) || strings.Contains(out.Err, "make the kinds agree") {
			t.Errorf("%s: matched %v err %q, want a non-match saying %q", tc.src, out.Matched, out.Err, tc.err)
		}
	}
	for _, tc := range []struct {
		name     string
		op       Op
		expected any
		unjudged bool
		matched  bool
	}{
		{"eq", OpEq, "0", true, false},
		{"ne", OpNe, "0", true, false},
		{"in", OpIn, []any{"0", "1"}, true, false},
		{"notIn", OpNotIn, []any{"0"}, true, false},
		{"eq with the line end", OpEq, "0\n", false, true},
		{"ne another text", OpNe, "1", false, true},
		{"notIn others", OpNotIn, []any{"1", "2"}, false, true},
		{"endsWith", OpEndsWith, "0", true, false},
		{"endsWith another", OpEndsWith, "1", false, false},
		{"matches", OpMatches, "^0$", true, false},
		{"matches another", OpMatches, "^1$", false, false},
		{"matches the line end", OpMatches, `^0\n$`, false, true},
	} {
		out := MustFilter(Where("id.stdout", tc.op, tc.expected)).Eval(env)
		c := out.Conditions[0]
		if c.Unjudged() != tc.unjudged || out.Matched != tc.matched {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged %v matched %v", tc.name, c.Unjudged(), out.Matched, c.Reason, tc.unjudged, tc.matched)
		}
		if tc.unjudged && !strings.Contains(c.Reason, "line end") {
			t.Errorf("filter %s: reason %q does not say the line end", tc.name, c.Reason)
		}
	}
}

// TestMadeTextIsJudgedAsReadText: redis-cli INFO ends its lines in
// "\r\n", and a chart that split it at "\n" and asked
// `"master_link_status:down" in split(info.stdout, "\n")` (or indexed
// the list, or asked any() of it with `#`) was a plain no over a replica
// whose link was down, OK, Consistent: split's list is of a type expr
// knows, and a comparison of known types was expr's own, unjudged. A
// text an expression made is judged as a read one now; two constants,
// and texts that differ otherwise, are as before.
func TestMadeTextIsJudgedAsReadText(t *testing.T) {
	t.Parallel()
	env := mapEnv{"info": map[string]any{"stdout": "# Replication\r\nrole:slave\r\nmaster_link_status:down\r\n"}}
	for _, tc := range []struct {
		src     string
		err     bool
		matched bool
	}{
		{`"master_link_status:down" in split(info.stdout, "\n")`, true, false},
		{`split(info.stdout, "\n")[2] == "master_link_status:down"`, true, false},
		{`split(info.stdout, "\n")[2] != "master_link_status:down"`, true, false},
		{`any(split(info.stdout, "\n"), # == "master_link_status:down")`, true, false},
		{`split(info.stdout, "\n")[2] matches "^master_link_status:down$"`, true, false},
		{`split(info.stdout, "\n")[2] endsWith ":down"`, true, false},
		{`"master_link_status:down" in split(info.stdout, "\r\n")`, false, true},
		{`"master_link_status:up" in split(info.stdout, "\r\n")`, false, false},
		{`split(info.stdout, "\r\n")[1] == "role:slave"`, false, true},
		{`"a" == "a"`, false, true},
	} {
		out := MustCompile(tc.src).Eval(env)
		if (out.Err != "") != tc.err || out.Matched != tc.matched {
			t.Errorf("%s: matched %v err %q, want matched %v and an error %v", tc.src, out.Matched, out.Err, tc.matched, tc.err)
		}
	}
}

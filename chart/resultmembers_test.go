package chart

import "testing"

// TestResultMemberNoStageWritesIsRefused: a member misspelt on an exec or
// read: stage's result read as null in every run. Under the guard the
// runtime advises for a value that may be missing it said nothing:
// `first(lines.conten ?? [])` read no line of a log full of errors, and
// `st.stdut?.status` no status, each Consistent (found by misspelling one
// member at a time in the wave charts). A member such a result never
// holds is a load error at the expression naming the members it can
// hold (the reserved af_ members too, which stand inside stdout); a key
// another kind of stage writes too loads as before.
func TestResultMemberNoStageWritesIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, expr, err string
	}{
		{"exec, bare", `'st.stdot == "x"'`, `c.yaml:17:15: stage "judge": set "v": expression "st.stdot == \"x\"" reads st.stdot, but st is an exec stage's result, which never holds stdot; did you mean "stdout"? (its members: stdout, stderr, exitCode, ok, timedOut, durationMs, signal, status, bits, error, withheld, parseError, parseProblems)`},
		{"exec, under ??", `'len(st.stdut ?? [])'`, `reads st.stdut, but st is an exec stage's result, which never holds stdut; did you mean "stdout"?`},
		{"exec, under ?.", `'st.stdout?.status ?? st.stauts'`, `reads st.stauts`},
		{"exec, optional root", `'st?.exitcode == 0'`, `did you mean "exitCode"?`},
		{"exec, by index", `'st["stderr2"]'`, `reads st.stderr2`},
		{"read, under ??", `'first(lines.conten ?? [])'`, `reads lines.conten, but lines is a read: stage's result, which never holds conten; did you mean "content"? (its members: path, exists, content, withheld, parseError, parseProblems)`},
		{"into", `'out.exitCod'`, `reads out.exitCod, but out is an exec stage's result`},
		{"every member", `'[st.stdout, st.stderr, st.exitCode, st.ok, st.timedOut, st.durationMs, st.signal, st.status, st.bits, st.error, st.withheld, st.parseError, st.parseProblems, lines.path, lines.exists, lines.content, lines.withheld, lines.parseError, lines.parseProblems]'`, ""},
		{"a reserved member, which stands inside stdout", `'st.af_absent ?? false'`, `reads st.af_absent, but st is an exec stage's result, which never holds af_absent`},
		{"the reserved member inside stdout", `'st.stdout.af_absent ?? false'`, ""},
		{"the stdout's own members", `'st.stdout.stdot ?? 1'`, ""},
		{"a key a set: stage writes too", `'both.whatever ?? 1'`, ""},
		{"a glob's list", `'len(many)'`, ""},
	} {
		src := `version: 1
runbook: t
stages:
  - id: st
    exec: {command: [echo, x]}
  - id: o
    exec: {command: [echo, x], into: out}
  - id: lines
    read: {path: '"/etc/hostname"'}
  - id: many
    read: {glob: '"/etc/*.conf"'}
  - id: both
    exec: {command: [echo, x]}
  - id: again
    set: {both: 'both.exitCode'}
  - id: judge
    set: {v: ` + tc.expr + `}
`
		loadErr(t, tc.name, src, tc.err)
	}
}

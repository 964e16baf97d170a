package rules

import (
	"strings"
	"testing"
)

// TestNegatedWordIsNoContains: podman ps prints a container's health in
// its STATUS column, `Up 16 minutes ago (healthy)` or `Up 16 minutes ago
// (unhealthy)`, and a chart asking `status contains "healthy"` said a
// container whose healthcheck failed healthy, OK, Consistent
// (testdata/wave-podman/status-text); `systemctl is-active` prints
// `inactive`, which holds `active`, and kubectl's `NotReady` holds
// `Ready`. A word found in the text only inside its own negation (un-,
// in-, non-, dis-, mis-, not-, any case) is a rule
// error saying the text says the opposite, under contains and under a
// matches whose pattern is that plain word, in an expression (over a
// text it made too: split(line, "|")[1], whose type expr knows) and in a
// filter; a word found on its own too, a word inside a longer word that
// is no negation of it (ERROR in ERRORS, fault in default, port in
// import), and a word of three letters or fewer are judged as before.
func TestNegatedWordIsNoContains(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"p": map[string]any{"bad": "Up 16 minutes ago (unhealthy)", "good": "Up 16 minutes ago (healthy)", "both": "2 healthy, 1 unhealthy", "line": "api|Up 21 minutes ago (unhealthy)"},
		"s": map[string]any{"state": "inactive", "node": "NotReady", "log": "disk ERRORS found", "un": "unset", "conf": "using default config, import done"},
	}
	const why = `"healthy" is found in "Up 16 minutes ago (unhealthy)" only inside "unhealthy", its negation`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`p.bad contains "healthy"`, why, false},
		{`p.bad matches "healthy"`, why, false},
		{`split(p.line, "|")[1] contains "healthy"`, `only inside "unhealthy", its negation`, false},
		{`s.state contains "active"`, `only inside "inactive", its negation`, false},
		{`s.node contains "Ready"`, `only inside "NotReady", its negation`, false},
		{`p.good contains "healthy"`, "", true},
		{`p.both contains "healthy"`, "", true},
		{`p.bad contains "unhealthy"`, "", true},
		{`p.bad matches "\\bhealthy\\b"`, "", false},
		{`s.log contains "ERROR"`, "", true},
		{`s.un contains "set"`, "", true},
		{`s.conf contains "fault"`, "", true},
		{`s.conf contains "port"`, "", true},
		{`s.state == "active"`, "", false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	for _, op := range []Op{OpContains, OpMatches} {
		out := MustFilter(Where("p.bad", op, "healthy")).Eval(env)
		if c := out.Conditions[0]; !c.Unjudged() || out.Matched || !strings.Contains(c.Reason, "its negation") {
			t.Errorf("filter %s: unjudged %v matched %v (reason %q); want unjudged", op, c.Unjudged(), out.Matched, c.Reason)
		}
	}
}

// TestNegationWrittenInTheExpressionIsNoAlarm: `s contains "active" &&
// !(s contains "inactive")` rules the negation out itself, and over
// systemctl is-active's inactive it was a rule error, every stopped
// unit not judged, Not sure; an expression that writes the word's
// negation anywhere (a literal, not a member's name) is not judged for
// it. One that does not is, as before.
func TestNegationWrittenInTheExpressionIsNoAlarm(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"u": map[string]any{"state": "inactive", "InactiveEnterTimestamp": "x"},
		"p": map[string]any{"line": "api|Up 21 minutes ago (unhealthy)"},
		"k": map[string]any{"ready": "NotReady"},
	}
	for _, tc := range []struct {
		src     string
		err     string
		matched bool
	}{
		{`u.state contains "active" && !(u.state contains "inactive")`, "", false},
		{`u.state contains "active" and u.state != "inactive"`, "", false},
		{`u.state matches "active" && !(u.state matches "^inactive")`, "", false},
		{`split(p.line, "|")[1] contains "healthy" && !(split(p.line, "|")[1] contains "unhealthy")`, "", false},
		{`k.ready contains "Ready" && !(k.ready contains "Not Ready") && !(k.ready contains "NotReady")`, "", false},
		// a member's name is no literal: the negation is not written
		{`u.state contains "active" && u.InactiveEnterTimestamp != ""`, `only inside "inactive", its negation`, false},
		{`u.state contains "active"`, `only inside "inactive", its negation`, false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}

// TestNegationByHyphenOrDeBeforeAVowelIsNoContains: dpkg-query
// -W -f '${Status}' prints `unknown ok not-installed` for a package
// removed and purged and `deinstall ok config-files` for one removed
// whose configuration is kept; `status contains "installed"` (and
// "install") said both installed, Consistent. not- and non- before a
// hyphen negate, and de- before a vowel (deactivating, deinstall);
// in-sync, default's fault and a word on its own still do not.
func TestNegationByHyphenOrDeBeforeAVowelIsNoContains(t *testing.T) {
	t.Parallel()
	env := mapEnv{"d": map[string]any{
		"purged":  "unknown ok not-installed",
		"removed": "deinstall ok config-files",
		"stop":    "deactivating",
		"exit":    "exited non-zero",
		"isr":     "3 in-sync replicas",
		"cannot":  "cannot-installed",
		"conf":    "using default config",
		"ok":      "install ok installed",
	}}
	for _, tc := range []struct {
		src     string
		err     string
		matched bool
	}{
		{`d.purged contains "installed"`, `only inside "not-installed", its negation`, false},
		{`d.removed contains "install"`, `only inside "deinstall", its negation`, false},
		{`d.stop contains "activating"`, `only inside "deactivating", its negation`, false},
		{`d.exit contains "zero"`, `only inside "non-zero", its negation`, false},
		{`d.isr contains "sync"`, "", true},
		{`d.cannot contains "installed"`, "", true},
		{`d.conf contains "fault"`, "", true},
		{`d.ok contains "installed"`, "", true},
		{`d.ok contains "install"`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}

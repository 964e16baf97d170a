package chart

import (
	"strings"
	"testing"
)

// TestStatusWordNoExitCodeGivesIsRefused: a rule comparing an exec
// stage's answer with a word its exitCodes: never gives is the same on
// every run. `exitCodes: {0: clean, 4: erorrs}` beside `check.status ==
// "errors"` loaded, and e2fsck's 4 over a filesystem with errors fell to
// the default, clean, OK, Consistent (testdata/wave-fsck).
func TestStatusWordNoExitCodeGivesIsRefused(t *testing.T) {
	t.Parallel()
	const src = `version: 1
runbook: fsck
result: {kind: verdict/fsck, decider: Fsck}
stages:
  - id: check
    exec: {command: [e2fsck, -fn, /dev/sdb1], exitCodes: {0: clean, 4: erorrs}}
  - id: fsck
    name: Fsck
    decide:
      rules:
        - {when: 'check.status == "errors"', then: errors, label: errors}
        - {when: 'check.status in ["clean", "dirty"] && check.status != "clean"', then: errors, label: dirty}
      default: {branch: clean, label: clean}
    branches:
      errors: [{id: e, verdict: {subject: '"sdb1"', verdict: '"errors"'}}]
      clean: [{id: c, verdict: {subject: '"sdb1"', verdict: '"clean"'}}]
`
	_, err := Parse("chart.yaml", []byte(src))
	for _, want := range []string{
		`chart.yaml:11:19: stage "fsck": rule 1 when: expression "check.status == \"errors\"" compares check.status with "errors", which its exitCodes: (and exitBits:) never give (its words: clean, erorrs)`,
		`did you mean "erorrs" (or is that exitCodes: word the one misspelt)?`,
		`compares check.status with "dirty", which its exitCodes: (and exitBits:) never give (its words: clean, erorrs)`,
		`declare the code that gives "dirty"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
	// the filter form of a rule too
	filter := strings.Replace(src, `{when: 'check.status == "errors"', then: errors, label: errors}`, `{when: {check.status: {eq: errors}}, then: errors, label: errors}`, 1)
	if _, err := Parse("chart.yaml", []byte(filter)); err == nil || !strings.Contains(err.Error(), `chart.yaml:11:12: stage "fsck": rule 1 when: condition on "check.status" (eq) compares check.status with "errors", which its exitCodes: (and exitBits:) never give`) {
		t.Errorf("the filter form: %v", err)
	}
	// the words it gives load; so does a key another stage writes too
	good := strings.Replace(strings.Replace(src, "erorrs", "errors", 1), `["clean", "dirty"]`, `["clean", "errors"]`, 1)
	if _, err := Parse("chart.yaml", []byte(good)); err != nil {
		t.Errorf("words its exitCodes: give: %v", err)
	}
	twice := strings.Replace(src, "  - id: fsck\n", "  - id: again\n    set: {check: '{\"status\": \"errors\"}'}\n  - id: fsck\n", 1)
	if _, err := Parse("chart.yaml", []byte(twice)); err != nil && strings.Contains(err.Error(), "never give") {
		t.Errorf("a key another stage writes too: %v", err)
	}
}

package chart

import (
	"strings"
	"testing"
)

// TestSecretInputDefaultHiddenInItsLoadError: a secret input's default of
// the wrong type is refused at its place without its value, as a given
// secret's is (regression: `runbook validate` printed `input "pin" default
// is the string "Dflt-Secret-X"`, while plan, the MCP tool's schema and an
// --input refusal hide a secret's value).
func TestSecretInputDefaultHiddenInItsLoadError(t *testing.T) {
	t.Parallel()
	_, err := Parse("chart.yaml", []byte(`version: 1
runbook: r
inputs:
  pin: {type: number, secret: true, default: "Dflt-Secret-X"}
  win: {type: duration, secret: true, default: "Dflt-Secret-D"}
  lst: {type: list, default: "shown-when-not-secret"}
stages:
  - {id: s, set: {x: "1"}}
`))
	text := loadErrText(t, err)
	if strings.Contains(text, "Dflt-Secret") {
		t.Errorf("a load error shows a secret input's default:\n%s", text)
	}
	for _, want := range []string{`chart.yaml:4:46: input "pin" default is not a number (value hidden: the input is secret)`, `chart.yaml:5:48: input "win" default is not a duration (value hidden: the input is secret)`, `"shown-when-not-secret"`} {
		if !strings.Contains(text, want) {
			t.Errorf("the load errors do not say %s:\n%s", want, text)
		}
	}
}

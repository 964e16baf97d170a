package chart

import (
	"errors"
	"strings"
	"testing"
)

// An ask that expects an answer named as a secret input can never be
// resumed: a resume is given the secret again by its name (a record keeps
// no secret), so the answer and the secret would be one key of the
// answers, and resume refused it whatever was given (runbook resume, the
// MCP resume tool, an answer through the client's form: "input token: is
// secret … give it again as token"). It is refused at load, at the ask;
// an answer named as an input that is not secret is the answer a person
// gives in its place, and loads.
func TestAskExpectingASecretInputsNameIsALoadError(t *testing.T) {
	t.Parallel()
	const chart = "version: 1\nrunbook: clash\ninputs:\n  token: {type: string, secret: true}\n  host: {type: string, default: a}\nstages:\n" +
		"  - {id: d, decide: {rules: [{when: 'true', then: a, label: yes}], default: {branch: b, label: no}}, branches: {a: [{id: q, ask: {question: '\"New token?\"', expects: {token: string}}}], b: []}}\n" +
		"  - {id: q2, ask: {question: '\"Which host?\"', expects: {host: string}}}\n"
	_, err := Parse("c.yaml", []byte(chart))
	var les LoadErrors
	if !errors.As(err, &les) || len(les) != 1 {
		t.Fatalf("err %v: want one load error, of the ask in the branch", err)
	}
	msg := les[0].Error()
	for _, want := range []string{"c.yaml:7:", `"token"`, "secret input", "name the answer otherwise"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q: want %q in it", msg, want)
		}
	}
}

package chart

import (
	"strings"
	"testing"
)

// TestValueCutByACommaInAFlowMappingSaysQuoteIt: in `{branch: ok, label:
// Ready, no pressure}` YAML ends the label at the comma and reads "no
// pressure" as a key with no value; the load error said `unknown key "no
// pressure" in default (known keys: branch, label)`, which names the key
// but not why it is one. It says the comma cut the label, and the label
// quoted.
func TestValueCutByACommaInAFlowMappingSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: d\n    decide:\n      rules:\n        - {when: 'true', then: bad, label: Ready, no pressure}\n      default: {branch: ok, label: Ready, no pressure}\n    branches: {bad: [], ok: []}\n"
	_, err := Parse("chart.yaml", []byte(src))
	for _, want := range []string{
		`chart.yaml:7:51: stage "d": unknown key "no pressure" in rule 1: a comma inside {…} ends a value, so "Ready" was the value of label and "no pressure" a key of its own; quote a value that holds a comma: label: "Ready, no pressure"`,
		`chart.yaml:8:43: stage "d": unknown key "no pressure" in default: a comma inside {…} ends a value, so "Ready" was the value of label and "no pressure" a key of its own; quote a value that holds a comma: label: "Ready, no pressure"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
	// A key of its own, with a value, is a misspelling as before.
	_, err = Parse("chart.yaml", []byte(strings.Replace(src, "label: Ready, no pressure}\n    branches", "label: Ready, lable: x}\n    branches", 1)))
	if err == nil || !strings.Contains(err.Error(), `unknown key "lable" in default; did you mean "label"?`) {
		t.Errorf("a misspelled key: %v", err)
	}
}

// TestExpressionWithAQuotedArgumentCutByACommaSaysQuoteIt: `{when:
// date(end.stdout.notAfter, "Jan _2 15:04:05 2006 MST") < now(), then:
// expired}`, a certificate rule written as the docs' date() examples are,
// was refused with the YAML parser's words alone, "could not find flow
// map content", at the layout: the comma ended the plain value and a
// quoted text followed. The error says so and gives the rule's
// expression whole, in single quotes.
func TestExpressionWithAQuotedArgumentCutByACommaSaysQuoteIt(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\ninputs: {end: {type: object, required: true}}\nstages:\n  - id: d\n    decide:\n      rules:\n        - {when: date(end.notAfter, \"Jan _2 15:04:05 2006 MST\") < now(), then: expired, label: Expired}\n      default: ok\n    branches: {expired: [], ok: []}\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `chart.yaml:8:37: the file is not valid YAML: could not find flow map content (a comma inside {…} ends a plain value, so "date(end.notAfter" was a value and what follows the comma is no key; quote a value that holds a comma whole, an expression in single quotes: 'date(end.notAfter, "Jan _2 15:04:05 2006 MST") < now()')`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	fixed := strings.Replace(src, `{when: date(end.notAfter, "Jan _2 15:04:05 2006 MST") < now(),`, `{when: 'date(end.notAfter, "Jan _2 15:04:05 2006 MST") < now()',`, 1)
	if _, err := Parse("chart.yaml", []byte(fixed)); err != nil {
		t.Errorf("the quoting it gives: %v", err)
	}
}

// TestValueCutByTwoCommasSaysQuoteItWhole: `label: the pool's health is
// not ok (out_of_data, metadata_read_only, failed)` in a flow mapping is
// cut at both commas; the error quoted the label up to the second comma
// only (`label: "… (out_of_data, metadata_read_only"`), which written as
// told is still cut, and called the last piece an unknown key with the
// known keys listed. It gives the value whole, once.
func TestValueCutByTwoCommasSaysQuoteItWhole(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: d\n    decide:\n      rules:\n        - {when: 'true', then: bad, label: not ok (a, b, c)}\n      default: ok\n    branches: {bad: [], ok: []}\n"
	_, err := Parse("chart.yaml", []byte(src))
	want := `quote a value that holds a comma: label: "not ok (a, b, c)"`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant it to hold %s", err, want)
	}
	if err != nil && strings.Contains(err.Error(), "known keys") {
		t.Errorf("the last piece is called a key of its own: %v", err)
	}
	fixed := strings.Replace(src, "label: not ok (a, b, c)}", `label: "not ok (a, b, c)"}`, 1)
	if _, err := Parse("chart.yaml", []byte(fixed)); err != nil {
		t.Errorf("the quoting it gives: %v", err)
	}
}

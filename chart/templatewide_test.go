package chart

import (
	"encoding/json"
	"testing"
)

// TestTemplateNumberPastInt64KeepsItsDigits: a counter past int64 (ip -j
// -s link's 18446744073709551615) given to a command as ${l.rx.bytes} was
// rendered through a float64, 18446744073709552000, a number the tool
// never printed; a whole number keeps its digits now.
func TestTemplateNumberPastInt64KeepsItsDigits(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"18446744073709551615":  "18446744073709551615",
		"-18446744073709551615": "-18446744073709551615",
		"1.37e10":               "13700000000",
	} {
		got, err := TemplateText(json.Number(in))
		if err != nil || got != want {
			t.Errorf("TemplateText(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := TemplateText(json.Number("1e400")); err == nil {
		t.Error("1e400 rendered; want an error: no argument holds it")
	}
}

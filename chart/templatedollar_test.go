package chart

import (
	"strings"
	"testing"
)

// TestToolPlaceholderInATemplateSaysDoubleTheDollar: dpkg-query -f's own
// placeholders, `-f=${Package}\t${Version}\n`, are template parts to the
// loader, and the error told to quote the word inside the expression,
// '"Package"', which renders the text Package: dpkg-query would then
// print the word "Package" for every package. A part that is a name
// alone, nothing defines, says to write $${Package} for the tool's own
// ${Package}.
func TestToolPlaceholderInATemplateSaysDoubleTheDollar(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: c\nstages:\n  - id: installed\n    exec: {command: [dpkg-query, -W, \"-f=${Package}\\t${Version}\\n\"]}\n"
	_, err := Parse("chart.yaml", []byte(src))
	for _, want := range []string{
		`expression "Package" reads Package, which no input, var, stage key, foreach as or index defines (a tool's own ${Package}, as dpkg-query -f writes its fields, is written $${Package}: a ${…} part is an expression over the chart's names)`,
		`expression "Version" reads Version`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), `'"Package"'`) {
		t.Errorf("error %v\nstill says to quote the word, which renders the text Package", err)
	}
	fixed := strings.ReplaceAll(src, "${", "$${")
	if _, err := Parse("chart.yaml", []byte(fixed)); err != nil {
		t.Errorf("the $${ it gives: %v", err)
	}
}

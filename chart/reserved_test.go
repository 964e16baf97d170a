package chart

import (
	"strings"
	"testing"
)

// TestReservedCharacterSaysQuoteIt: a Nagios range "inside", @10:20,
// written plain as an input's default was refused with the parser's words
// alone, "'@' is a reserved character", which say neither that a plain
// value cannot begin with it nor to quote it.
func TestReservedCharacterSaysQuoteIt(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"@", "`"} {
		src := "version: 1\nrunbook: r\ninputs:\n  crit: {type: string, default: " + c + "10:20}\nstages:\n  - id: s\n    set: {x: crit}\n"
		_, err := Parse("chart.yaml", []byte(src))
		want := `chart.yaml:4:33: the file is not valid YAML: '` + c + `' is a reserved character (a plain value cannot begin with @ or ` + "`" + `, as the Nagios range @10:20 does; quote the whole value, default: "@10:20")`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v\nwant it to hold %s", c, err, want)
		}
	}
}

package chart

import (
	"strings"
	"testing"
)

// TestYAMLLeadingZeroNumberIsRefused: the YAML parser reads 0443 as YAML
// 1.1's octal, so a chart's `port: 0443` (an input's default, a var, a
// set: literal) was the number 291 and a TCP check connected to port 291,
// Consistent, where `--input port=0443` gave 443. It is a load error at
// the number now, saying the three things it could mean; 0o443, a quoted
// '0443', 08080 (no octal: the parser keeps the text), 0 and 07 (one
// number either way) still load.
func TestYAMLLeadingZeroNumberIsRefused(t *testing.T) {
	t.Parallel()
	src := `version: 1
runbook: c
inputs:
  port: {type: number, default: 0443}
vars:
  mode: 0755
stages:
  - id: s
    set: {p: -010, ok: 0, hex: 0x1BB}
`
	_, err := Parse("chart.yaml", []byte(src))
	if err == nil {
		t.Fatal("a chart with port: 0443 loaded")
	}
	for _, want := range []string{
		`chart.yaml:4:33: the YAML parser reads 0443, a number with a leading zero, as an octal number (291), where a person and YAML 1.2 read it as 443; write 443 for the number 443, 0o443 for the octal number 291, or '0443' (quoted) for the text`,
		`chart.yaml:6:9: the YAML parser reads 0755, a number with a leading zero, as an octal number (493)`,
		`chart.yaml:9:14: the YAML parser reads -010, a number with a leading zero, as an octal number (-8), where a person and YAML 1.2 read it as -10; write -10 for the number -10, -0o10 for the octal number -8`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
	if n := strings.Count(err.Error(), "leading zero"); n != 3 {
		t.Errorf("%d leading-zero errors, want 3 (0, 0x1BB are no octal): %v", n, err)
	}
	ok := `version: 1
runbook: c
inputs:
  port: {type: number, default: 0o443}
vars:
  mode: '0755'
  zip: 08080
stages:
  - id: s
    set: {p: 00, ok: 0, seven: 07}
`
	spec, err := Parse("chart.yaml", []byte(ok))
	if err != nil {
		t.Fatalf("0o443, '0755', 08080 and 00: %v", err)
	}
	if d := spec.Inputs[0].Default; d != int64(291) && d != 291 && d != uint64(291) {
		t.Errorf("0o443 is %T %v, want the octal number 291", d, d)
	}
}

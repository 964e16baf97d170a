package chart

import (
	"strings"
	"testing"
)

// TestIPv6InAFlowListSaysQuoteIt: `exec: {command: [ping, -c, "1", ::1]}`,
// a ping of the IPv6 loopback, was refused with the YAML parser's own
// words, "found an invalid key for this map", which say neither what it
// read nor what to write: inside a [...] list within a {...} map the
// parser takes an address's leading ":" for a map's. It is said as
// 2001:db8::1 is, with the value quoted; outside a {...} map, and quoted,
// it loads as the text written.
func TestIPv6InAFlowListSaysQuoteIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ addr, at string }{
		{"::1", "5:37"},
		{"::ffff:10.0.0.1", "5:37"},
	} {
		src := "version: 1\nrunbook: c\nstages:\n  - id: probe\n    exec: {command: [ping, -c, \"1\", " + tc.addr + ", -W, \"1\"]}\n"
		_, err := Parse("chart.yaml", []byte(src))
		want := "chart.yaml:" + tc.at + `: the YAML parser cannot read ` + tc.addr + ` inside this [...] list as the text written: inside a {...} map it takes the ":" it begins with for a map's; quote it: "` + tc.addr + `"`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v\nwant it to hold %s", tc.addr, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "invalid key") {
			t.Errorf("%s: the parser's own words are still said: %v", tc.addr, err)
		}
		quoted := strings.Replace(src, tc.addr, `"`+tc.addr+`"`, 1)
		spec, err := Parse("chart.yaml", []byte(quoted))
		if err != nil || spec.Stages[0].Exec == nil || spec.Stages[0].Exec.Command[3] != tc.addr {
			t.Errorf("%s quoted: %v", tc.addr, err)
		}
	}
	block := "version: 1\nrunbook: c\nstages:\n  - id: probe\n    exec:\n      command: [ping, -c, \"1\", ::1]\n"
	spec, err := Parse("chart.yaml", []byte(block))
	if err != nil || spec.Stages[0].Exec.Command[3] != "::1" {
		t.Errorf("a block map's list: %v", err)
	}
}

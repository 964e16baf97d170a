package parse

import (
	"strings"
	"testing"
)

// TestPerfItemTextReadsBack: every perfdata item runbook writes for a
// chart's result.perfdata is read back by the nagios mode as the item it
// was, and what the mode would not read is refused, naming the member.
func TestPerfItemTextReadsBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		item   map[string]any
		prefix string
		want   string // the text, or the error's words
		err    bool
	}{
		{map[string]any{"label": "load1", "value": 0.5, "warn": 5, "crit": "10:"}, "", "load1=0.5;5;10:", false},
		{map[string]any{"label": "/", "value": 80, "uom": "%", "max": 100}, "disk::", "disk::/=80%;;;;100", false},
		{map[string]any{"label": "/mnt/my disk", "value": 100, "uom": "B", "min": 0, "max": 1000}, "", "'/mnt/my disk'=100B;;;0;1000", false},
		{map[string]any{"label": "it's", "value": "U"}, "", "'it''s'=U", false},
		{map[string]any{"label": "t", "value": 0.002, "uom": "s", "warn": nil, "crit": "@1:2"}, "", "t=0.002s;;@1:2", false},
		{map[string]any{"label": "n", "value": 12345678901}, "", "n=12345678901", false},
		{map[string]any{"label": "x", "value": 1, "critical": 5}, "", `no member "critical"`, true},
		{map[string]any{"label": "", "value": 1}, "", "label is", true},
		{map[string]any{"value": 1}, "", "label is null", true},
		{map[string]any{"label": "x", "value": "12"}, "", "its value is a string", true},
		{map[string]any{"label": "x", "value": nil}, "", "its value is null", true},
		{map[string]any{"label": "x", "value": 1, "uom": "k B"}, "", "its uom", true},
		{map[string]any{"label": "x", "value": 1, "warn": "high"}, "", "its warn is a string", true},
		{map[string]any{"label": "x", "value": 1, "min": "0:"}, "", "its min is a string", true},
		{map[string]any{"label": "a\nb", "value": 1}, "", "line end", true},
		{map[string]any{"label": "a|b", "value": 1}, "p::", "holds a |", true},
	} {
		got, err := PerfItemText(tc.item, tc.prefix)
		if tc.err {
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("PerfItemText(%v) = %q, %v; want an error saying %q", tc.item, got, err, tc.want)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("PerfItemText(%v) = %q, %v; want %q", tc.item, got, err, tc.want)
			continue
		}
		res, err := Parse("OK | "+got, Spec{Mode: "nagios"})
		if err != nil || res.Problems > 0 {
			t.Errorf("%q does not read back: %v, %s", got, err, res.FirstProblem)
			continue
		}
		back := res.Value.(map[string]any)["perfdata"].([]any)[0].(map[string]any)
		if back["label"] != tc.prefix+tc.item["label"].(string) {
			t.Errorf("%q reads back with label %q", got, back["label"])
		}
	}
	if _, err := PerfItemText("load1=1", ""); err == nil || !strings.Contains(err.Error(), "is an object") {
		t.Errorf("a text item: %v", err)
	}
}

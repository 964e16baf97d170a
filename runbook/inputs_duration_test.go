package runbook

import (
	"strings"
	"testing"
)

// TestDurationInputInDaysSaysHours: `--input since=2d`, the way an SRE
// asks for the last two days of logs, was refused as `is not a duration:
// "2d" (like 90s, 2h, 1h30m)`, which did not say that Go has no unit for
// days; it now says what to write, as duration("7d") in an expression
// does (rules.DurationHint, the one home of those words).
func TestDurationInputInDaysSaysHours(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"2d": `is not a duration: "2d" (like 90s, 2h, 1h30m): a duration's units are ns, us, ms, s, m and h (no d or w), so write "48h" for "2d"`,
		"1w": `so write "168h" for "1w"`,
	} {
		_, err := convertInput("duration", in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error holding %q", in, err, want)
		}
	}
	if _, err := convertInput("duration", "2 hours"); err == nil || err.Error() != `is not a duration: "2 hours" (like 90s, 2h, 1h30m)` {
		t.Errorf("2 hours: %v, want the words as they were", err)
	}
	if v, err := convertInput("duration", "48h"); err != nil || v != "48h" {
		t.Errorf("48h: %v, %v", v, err)
	}
}

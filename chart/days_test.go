package chart

import (
	"strings"
	"testing"
)

// TestDurationInDaysInTheChartSaysHours: a chart's `timeout: 1d` and an
// input's `default: 2d` were refused as "not a duration" with examples of
// units, never saying Go has no unit for days; they now say what to write,
// in the words duration("7d") and --input since=2d give (rules.DurationHint).
func TestDurationInDaysInTheChartSaysHours(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: d\ninputs:\n  since: {type: duration, default: 2d, description: the window}\nstages:\n  - id: s\n    exec: {command: [\"true\"], timeout: 1w}\n"
	_, err := Parse("chart.yaml", []byte(src))
	for _, want := range []string{
		`chart.yaml:4:36: input "since" default "2d" is not a duration: write a number with a unit, such as 500ms, 10s, 2m or 1h30m: a duration's units are ns, us, ms, s, m and h (no d or w), so write "48h" for "2d"`,
		`stage "s": exec timeout "1w" is not a duration: write a number with a unit, such as 500ms, 10s, 2m or 1h30m: a duration's units are ns, us, ms, s, m and h (no d or w), so write "168h" for "1w"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
}

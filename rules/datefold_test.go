package rules

import (
	"strings"
	"testing"
	"time"
)

// TestDateInTheHourTwiceIsUnsure: a log writing its local time with no
// offset writes 02:50 twice the night Berlin's clocks go back, at +02:00
// and an hour later at +01:00. date(x, layout, "Europe/Berlin") read it
// as the second in silence: a heartbeat written at the first 02:50 and
// read at 03:10 CET, 80 minutes later, was 20 minutes old, and a check
// that the app logged within the half hour said it had. A wall time the
// zone had twice, or never (the hour skipped going forward), is an error
// now; an hour the zone had once reads.
func TestDateInTheHourTwiceIsUnsure(t *testing.T) {
	t.Parallel()
	env := mapEnv{}
	for _, tc := range []struct{ expr, want string }{
		{`date("2026-10-25 02:35:00", "2006-01-02 15:04:05", "Europe/Berlin")`, `2026-10-25 02:35:00 happened twice in Europe/Berlin (at 2026-10-25T02:35:00+02:00, and again at 2026-10-25T02:35:00+01:00 when the clocks went back)`},
		{`date(timezone("America/New_York"), "Nov  1 01:30:00 2026", "Jan _2 15:04:05 2006")`, `happened twice in America/New_York`},
		{`now() - date("2026-10-25 02:50:00", "2006-01-02 15:04:05", "Europe/Berlin") < duration("30m")`, `happened twice in Europe/Berlin`},
		{`date("2026-03-29 02:30:00", "2006-01-02 15:04:05", "Europe/Berlin")`, `2026-03-29 02:30:00 never happened in Europe/Berlin (the clocks went forward past it)`},
	} {
		_, _, err := MustCompile(tc.expr).Value(env)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v; want one saying %s", tc.expr, err, tc.want)
		}
	}
	for _, tc := range []struct{ expr, want string }{
		{`date("2026-10-25 03:35:00", "2006-01-02 15:04:05", "Europe/Berlin")`, "2026-10-25T03:35:00+01:00"},
		{`date("2026-10-25 01:35:00", "2006-01-02 15:04:05", "Europe/Berlin")`, "2026-10-25T01:35:00+02:00"},
		{`date("2026-10-25 02:35:00", "2006-01-02 15:04:05", "UTC")`, "2026-10-25T02:35:00Z"},
		{`date("2026-10-25 02:35:00 +0100", "2006-01-02 15:04:05 -0700", "Europe/Berlin")`, "2026-10-25T02:35:00+01:00"},
		{`date("2026-10-25T02:35:00+01:00")`, "2026-10-25T02:35:00+01:00"},
	} {
		v, _, err := MustCompile(tc.expr + `.Format("` + time.RFC3339 + `")`).Value(env)
		if err != nil || v != tc.want {
			t.Errorf("%s = %v, %v; want %s", tc.expr, v, err, tc.want)
		}
	}
}

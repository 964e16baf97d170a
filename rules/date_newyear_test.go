package rules

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestNoYearRecipeReadsLastDecemberInJanuary: the error date() gives over
// a syslog stamp with no year ("Dec 31 23:50:00") told the author to add
// this year, date(string(now().Year()) + " " + x, …). Read at 00:30 on
// New Year's Day, that put last night's 23:50 line, and every line of the
// week before it in syslog.1, in December of the new year: a window rule
// now() - t < duration("2h") counted a week of old errors as the last two
// hours' (a confident critical row), and one written t >= now() -
// duration("2h") && t <= now() missed the 23:50 error (an OK). The recipe
// the error gives now takes last year's where this year's is more than a
// day ahead; this test runs the recipe as the error words it.
func TestNoYearRecipeReadsLastDecemberInJanuary(t *testing.T) {
	t.Parallel()
	out := MustCompile(`date(x, "Jan _2 15:04:05", "UTC") < now()`).Eval(clockEnv{mapEnv{"x": "Dec 31 23:50:00"}, time.Now()})
	at := strings.Index(out.Err, "let t = ")
	if at < 0 {
		t.Fatalf("the error gives no recipe that chooses the year: %q", out.Err)
	}
	recipe := errPosition.ReplaceAllString(out.Err[at:], "")
	newYear := time.Date(2027, 1, 1, 0, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		now        time.Time
		line, want string
	}{
		{newYear, "Dec 31 23:50:00", "2026-12-31T23:50:00Z"},
		{newYear, "Dec 25 10:00:00", "2026-12-25T10:00:00Z"},
		{newYear, "Jan  1 00:20:00", "2027-01-01T00:20:00Z"},
		{newYear, "Jan  1 00:40:00", "2027-01-01T00:40:00Z"}, // a host's clock ten minutes ahead is no line of last year
		{time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC), "Dec  6 10:59:00", "2026-12-06T10:59:00Z"},
	} {
		v, _, err := MustCompile(recipe).Value(clockEnv{mapEnv{"x": tc.line}, tc.now})
		if err != nil || v != tc.want {
			t.Errorf("at %s, %s = %v, %v; want %s (the recipe %s)", tc.now.Format(time.RFC3339), tc.line, v, err, tc.want, recipe)
		}
	}
}

// errPosition is the (line:column) expr puts after a run's error.
var errPosition = regexp.MustCompile(` \(\d+:\d+\)$`)

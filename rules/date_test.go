package rules

import (
	"strings"
	"testing"
	"time"
)

// TestDateRefusesAZoneItKnowsNoOffsetFor: a cron's last run printed by
// `date` on a host in Berlin, "Sun Dec  6 10:15:22 CET 2026" (09:15 UTC),
// read by date() on a runner in UTC came out as 10:15 UTC — Go reads a
// zone abbreviation it has no offset for as UTC — so a run 1h45m before
// 11:00 UTC read as 45 minutes old, and a "ran within the hour" rule
// matched. date() now refuses such a time and says how to give the
// offset; a time with its zone's name, a numeric offset, UTC or GMT reads
// as before.
func TestDateRefusesAZoneItKnowsNoOffsetFor(t *testing.T) {
	t.Parallel()
	if name, _ := time.Date(2026, 12, 6, 0, 0, 0, 0, time.Local).Zone(); name == "CET" {
		t.Skip("this machine's zone is CET: it knows CET's offset")
	}
	env := mapEnv{
		"cron":    map[string]any{"last": "Sun Dec  6 10:15:22 CET 2026", "iso": "2026-12-06T10:15:22+01:00"},
		"checked": "2026-12-06T11:00:00Z",
		"cert":    "Dec 11 10:15:48 2026 GMT",
		"layout":  time.UnixDate,
	}
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(cron.last, layout) < duration("1h")`, false, `the zone "CET" has no offset this machine knows`},
		{`date(checked) - date(cron.last, layout, "Europe/Berlin") < duration("1h")`, false, ""},
		{`date(checked) - date(timezone("Europe/Berlin"), cron.last, layout) > duration("1h30m")`, true, ""},
		{`date(checked) - date(cron.iso) > duration("1h30m")`, true, ""},
		{`date(cert, "Jan _2 15:04:05 2006 MST") - date(checked) < duration("336h")`, true, ""},
	})
}

// TestDateZoneGivenButAbbreviationUnknownSaysSo: keytool on a host in
// America/Sao_Paulo prints "BRT", which the zone data does not name (it
// writes -03). The refusal told the author to give the zone's name as
// date's third argument, and given it, said the same again: the advice was
// no way out. With a zone given, it says the abbreviation is not one that
// zone's data knows and to have the command print UTC or an offset.
func TestDateZoneGivenButAbbreviationUnknownSaysSo(t *testing.T) {
	t.Parallel()
	env := mapEnv{"until": "Sat Dec 12 15:32:30 BRT 2026", "layout": "Mon Jan 02 15:04:05 MST 2006"}
	const why = `the zone "BRT" is not an abbreviation the zone data of America/Sao_Paulo knows`
	runOutcomes(t, env, []outcomeCase{
		{`date(until, layout, "America/Sao_Paulo") < now()`, false, why},
		{`date(timezone("America/Sao_Paulo"), until, layout) < now()`, false, why},
		{`date(until, layout) < now()`, false, `the zone "BRT" has no offset this machine knows`},
	})
}

// TestDateRefusesATimeWithNoZone: an application log's last stamp,
// "2026-12-06 10:30:00" in its host's time (Berlin: 09:30 UTC), read by
// date() as 10:30 UTC, so at 10:25 UTC a log silent for 55 minutes read as
// written 5 minutes ahead and a "written within 10 minutes" rule matched.
// A time of day with no zone and no zone argument is now an error saying
// to name the zone; a date alone, a zoned time and a time given its zone
// read as before.
func TestDateRefusesATimeWithNoZone(t *testing.T) {
	t.Parallel()
	env := mapEnv{"log": map[string]any{"last": "2026-12-06 10:30:00", "day": "2026-12-06"}, "checked": "2026-12-06T10:25:00Z"}
	const why = "the time has no zone"
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(log.last) < duration("10m")`, false, why},
		{`date(checked) - date(log.last, "2006-01-02 15:04:05") < duration("10m")`, false, why},
		{`date(checked) - date(log.last, "2006-01-02 15:04:05", "Europe/Berlin") > duration("50m")`, true, ""},
		{`date(checked) - date(timezone("Europe/Berlin"), log.last) > duration("50m")`, true, ""},
		{`date(log.day) < date(checked)`, true, ""},
		{`date(log.day, "2006-01-02") < date(checked)`, true, ""},
		{`date("2026-12-06T10:30:00+01:00") < date(checked)`, true, ""},
	})
}

// TestDateRefusesATimeWithNoYear: journalctl's and syslog's stamp, "Dec  6
// 10:59:00", read with its layout and zone came out as year 0, so a line
// written a minute before 11:00 read as 2026 years old and "an error in
// the last hour" found none, with nothing said. A time with no year is now
// an error saying how to give one; with the year added it reads.
func TestDateRefusesATimeWithNoYear(t *testing.T) {
	t.Parallel()
	env := mapEnv{"line": "Dec  6 10:59:00", "checked": "2026-12-06T11:00:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(line, "Jan _2 15:04:05", "UTC") < duration("1h")`, false, "the time has no year"},
		{`date(checked) - date("2026 " + line, "2006 Jan _2 15:04:05", "UTC") < duration("1h")`, true, ""},
		{`date(checked) - date(string(date(checked).Year()) + " " + line, "2006 Jan _2 15:04:05", "UTC") < duration("1h")`, true, ""},
		{`date("Jan  1 00:05:00", "Jan _2 15:04:05", "UTC") < date(checked)`, false, "the time has no year"},
		{`date(timezone("UTC"), line, "Jan _2 15:04:05") < date(checked)`, false, "the time has no year"},
		// A time of day alone is no stamp: two compare as they did.
		{`date("10:30", "15:04", "UTC") < date("11:00", "15:04", "UTC")`, true, ""},
	})
}

// TestDateWithNoLayoutSaysToGiveOne: text date() does not read without a
// layout (plain `date`'s output, nginx's stamp) was "invalid date …",
// which said nothing of the layout argument; the error now says to give
// one, with Go's reference time. A text it does read is unchanged.
func TestDateWithNoLayoutSaysToGiveOne(t *testing.T) {
	t.Parallel()
	env := mapEnv{"d": "Sun Dec  6 11:00:00 UTC 2026", "n": "06/Dec/2026:11:00:00 +0000", "checked": "2026-12-06T11:00:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(d) == date(checked)`, false, "give its layout as date's second argument"},
		{`date(n) == date(checked)`, false, "Mon Jan 2 15:04:05 MST 2006"},
		{`date(d, "Mon Jan _2 15:04:05 MST 2006") == date(checked)`, true, ""},
		{`date(n, "02/Jan/2006:15:04:05 -0700") == date(checked)`, true, ""},
	})
}

// TestDateRefusesACompactTimeWithNoZone: a backup named by its local
// start, db-20261206020000.sql.gz (02:00 in Berlin, 01:00 UTC), read with
// date(stamp, "20060102150405") came out as 02:00 UTC: the check for a
// zone-less time looked for ":04" in the layout, and this one (like a
// dotted "02.01.2006 15.04") has none, so at 01:30 UTC the next day a
// backup 24h30m old read as 23h30m and a "within 24 hours" rule matched.
// A layout is now judged by what it reads, not how it is spelt.
func TestDateRefusesACompactTimeWithNoZone(t *testing.T) {
	t.Parallel()
	env := mapEnv{"stamp": "20261206020000", "dotted": "06.12.2026 02.00", "checked": "2026-12-07T01:30:00Z"}
	const why = "the time has no zone"
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(stamp, "20060102150405") < duration("24h")`, false, why},
		{`date(checked) - date(dotted, "02.01.2006 15.04") < duration("24h")`, false, why},
		{`date(checked) - date(stamp[0:10], "2006010215") < duration("24h")`, false, why},
		{`date(checked) - date(stamp, "20060102150405", "Europe/Berlin") > duration("24h")`, true, ""},
		{`date(checked) - date(timezone("Europe/Berlin"), stamp, "20060102150405") > duration("24h")`, true, ""},
		{`date(checked) - date(stamp + "+0100", "20060102150405-0700") > duration("24h")`, true, ""},
		{`date(checked) - date(stamp + " CET", "20060102150405 MST", "Europe/Berlin") > duration("24h")`, true, ""},
		// a day alone, however it is spelt, reads as midnight UTC as before
		{`date("20261206", "20060102") < date(checked)`, true, ""},
	})
}

// TestDateOfANumberSaysToReadItAsText: a backup's stamp 20261206020000,
// which a parse mode reads as a number, given to date() made the rule's
// error Go's "interface conversion: interface {} is int, not string",
// naming neither the value nor the fix. It now says the value is a number
// and how to read it as text; null says it is null.
func TestDateOfANumberSaysToReadItAsText(t *testing.T) {
	t.Parallel()
	env := mapEnv{"row": map[string]any{"stamp": 20261206020000, "text": "20261206020000"}, "checked": "2026-12-07T01:30:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(row.stamp, "20060102150405", "UTC") > duration("24h")`, false, "date(20261206020000): date reads text, and this is a number"},
		{`date(checked) - date(timezone("UTC"), row.stamp, "20060102150405") > duration("24h")`, false, "numbers: false on the parse mode"},
		{`date(row?.missing) < date(checked)`, false, "date(null): date reads text, and the value is null"},
		{`date(checked) - date(string(row.stamp), "20060102150405", "UTC") < duration("24h")`, true, ""},
	})
}

// zonedEnv is an Env that says which zone is this machine's (Zoned).
type zonedEnv struct {
	mapEnv
	zone *time.Location
}

func (e zonedEnv) Zone() *time.Location { return e.zone }

// TestDateLocalReadsTheEnvsZone: date(x, layout, "Local") read x in
// time.Local, the zone of the host that ran the expression, so a chart
// test fixing its clock at 08:50 Berlin over a log's 07:55 stamp found it
// 55 minutes old on a laptop in Berlin and 55 minutes ahead in CI in UTC:
// the case passed on one and failed on the other. An Env that is Zoned
// now says which zone "Local" is; one that is not reads the host's, as
// before.
func TestDateLocalReadsTheEnvsZone(t *testing.T) {
	t.Parallel()
	berlin := time.FixedZone("", 3600)
	vars := mapEnv{"logged": "2026-12-06 07:55:00", "checked": "2026-12-06T08:50:00+01:00"}
	const silent = `date(checked) - date(logged, "2006-01-02 15:04:05", "Local") > duration("50m")`
	out := MustCompile(silent).Eval(zonedEnv{vars, berlin})
	if out.Err != "" || !out.Matched {
		t.Errorf("in Berlin's zone: matched %v, err %q; want the stamp 55 minutes old", out.Matched, out.Err)
	}
	out = MustCompile(silent).Eval(zonedEnv{vars, time.UTC})
	if out.Err != "" || out.Matched {
		t.Errorf("in UTC: matched %v, err %q; want the stamp read as 07:55 UTC, ahead of the clock", out.Matched, out.Err)
	}
	host := MustCompile(`date(logged, "2006-01-02 15:04:05", "Local") == date(timezone("Local"), logged, "2006-01-02 15:04:05")`).Eval(vars)
	if host.Err != "" || !host.Matched {
		t.Errorf("an Env with no zone: matched %v, err %q; want the host's zone, as before", host.Matched, host.Err)
	}
	nested := MustCompile(`any([logged], date(#, "2006-01-02 15:04:05", "Local") < date(checked))`).Eval(zonedEnv{vars, berlin})
	if nested.Err != "" || !nested.Matched {
		t.Errorf("in a predicate: matched %v, err %q", nested.Matched, nested.Err)
	}
}

// TestDurationInputOrderedWithATimeSaysReadIt: a chart's duration input
// (maxAge: {type: duration}) is the text "26h" in the scope, so `now() -
// date(x) > maxAge` was the rule error "invalid operation: time.Duration >
// string", which said neither which value nor what to write. It now names
// the text and says to read it with duration(x); a time beside a text says
// date(x).
func TestDurationInputOrderedWithATimeSaysReadIt(t *testing.T) {
	t.Parallel()
	env := mapEnv{"maxAge": "26h", "made": "2026-12-06T02:00:00Z", "checked": "2026-12-07T05:00:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - date(made) > maxAge`, false, `a duration cannot be ordered with the text "26h": a duration input, or a duration a stage kept, is text in the scope; read it with duration(x)`},
		{`maxAge < date(checked) - date(made)`, false, `read it with duration(x)`},
		{`date(checked) > made`, false, `a time cannot be ordered with the text "2026-12-06T02:00:00Z": a time a stage kept is text in the scope; read it with date(x)`},
		{`date(checked) - date(made) > duration(maxAge)`, true, ""},
	})
}

// TestTimezoneLocalIsTheEnvsZone: timezone("Local") was time.Local, the
// zone of the host that ran the expression, where date(x, layout,
// "Local") already read the Env's: a chart test fixing its case in
// Berlin read date(timezone("Local"), stamp, layout) in UTC in CI and
// failed there alone. It is the Env's zone too, and the host's over an
// Env with none.
func TestTimezoneLocalIsTheEnvsZone(t *testing.T) {
	t.Parallel()
	berlin := time.FixedZone("Berlin", 3600)
	vars := mapEnv{"logged": "2026-12-06 07:55:00", "checked": "2026-12-06T08:50:00+01:00"}
	for _, src := range []string{
		`date(checked) - date(timezone("Local"), logged, "2006-01-02 15:04:05") > duration("50m")`,
		`date(timezone("Local"), logged, "2006-01-02 15:04:05") == date(logged, "2006-01-02 15:04:05", "Local")`,
	} {
		if out := MustCompile(src).Eval(zonedEnv{vars, berlin}); out.Err != "" || !out.Matched {
			t.Errorf("%s in Berlin's zone: matched %v, err %q", src, out.Matched, out.Err)
		}
	}
	if out := MustCompile(`date(checked) - date(timezone("Local"), logged, "2006-01-02 15:04:05") > duration("50m")`).Eval(zonedEnv{vars, time.UTC}); out.Err != "" || out.Matched {
		t.Errorf("in UTC: matched %v, err %q; want the stamp read as 07:55 UTC", out.Matched, out.Err)
	}
	if out := MustCompile(`timezone("Local") == timezone("Local")`).Eval(vars); out.Err != "" || !out.Matched {
		t.Errorf("an Env with no zone: matched %v, err %q", out.Matched, out.Err)
	}
}

// TestDateLayoutWithTheZoneAsLettersSaysGosZone: openssl x509 -dateopt
// iso_8601 prints notAfter=2026-12-04 17:39:25Z; read with the layout
// "2006-01-02 15:04:05Z" the rule was refused saying "the time has no
// zone", over a text that names UTC, and told the chart to name a zone
// the text already gives. The error says the layout's Z is a letter it
// matches and gives the layout that reads the zone.
func TestDateLayoutWithTheZoneAsLettersSaysGosZone(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, layout, want string }{
		{"2026-12-04 17:39:25Z", "2006-01-02 15:04:05Z", `the layout reads no zone: its "Z" is letters it matches, not Go's zone; write "2006-01-02 15:04:05Z07:00"`},
		{"Dec  4 17:39:25 2026 UTC", "Jan _2 15:04:05 2006 UTC", `its "UTC" is letters it matches, not Go's zone; write "Jan _2 15:04:05 2006 MST"`},
	} {
		_, err := dateFunc(tc.text, tc.layout)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "the time has no zone") {
			t.Errorf("date(%q, %q): %v\nwant it to hold %s", tc.text, tc.layout, err, tc.want)
		}
	}
	v, err := dateFunc("2026-12-04 17:39:25Z", "2006-01-02 15:04:05Z07:00")
	if err != nil || !v.(time.Time).Equal(time.Date(2026, 12, 4, 17, 39, 25, 0, time.UTC)) {
		t.Errorf("the layout it gives: %v, %v", v, err)
	}
	// A time with no zone at all is refused as before.
	if _, err := dateFunc("2026-12-04 17:39:25", "2006-01-02 15:04:05"); err == nil || !strings.Contains(err.Error(), "the time has no zone") {
		t.Errorf("no zone: %v", err)
	}
}

// TestTimeArithmeticWithTextSaysReadIt: a time a stage kept is text in
// the scope, so `now() - latest.at` over a borg archive's time a set:
// stage had read with date() said only expr's `invalid operation:
// time.Time - string`, naming neither the text nor what would read it,
// where `latest.at > now()` beside it already did. Adding or taking a
// time or a duration and a text says so as ordering them does.
func TestTimeArithmeticWithTextSaysReadIt(t *testing.T) {
	t.Parallel()
	env := mapEnv{"at": "2026-12-06T20:47:46Z", "maxAge": "26h", "checked": "2026-12-07T05:00:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(checked) - at > duration(maxAge)`, false, `date(checked) - at: a time cannot be used in "-" with the text "2026-12-06T20:47:46Z": a time a stage kept is text in the scope; read it with date(x)`},
		{`date(checked) - maxAge > date(at)`, false, `date(checked) - maxAge: a time cannot be used in "-" with the text "26h": a duration input, or a duration a stage kept, is text in the scope; read it with duration(x)`},
		{`date(at) + maxAge < date(checked)`, false, `date(at) + maxAge: a time cannot be used in "+" with the text "26h"`},
		{`duration(maxAge) * at > duration("1h")`, false, `a duration cannot be used in "*" with the text "2026-12-06T20:47:46Z": a duration input, or a duration a stage kept, is text in the scope; read it with duration(x)`},
		{`date(checked) - date(at) > duration(maxAge)`, false, ""},
	})
}

// TestNumberArithmeticWithTextSaysReadIt: find -printf '%T@ %p' prints
// an mtime with ten decimals, which a parse mode keeps as text (no
// float64 holds it whole), so `now().Unix() - f.mtime` said only expr's
// `invalid operation: int64 - string`. It names the text and says to
// read it with float(x).
func TestNumberArithmeticWithTextSaysReadIt(t *testing.T) {
	t.Parallel()
	env := mapEnv{"mtime": "1796712345.1234567890", "name": "web1", "n": 3}
	runOutcomes(t, env, []outcomeCase{
		{`n - mtime > 0`, false, `n - mtime: a number cannot be used in "-" with the text "1796712345.1234567890": it spells a number, which a parse mode keeps as text when a float64 would not hold it whole (find -printf %T@); read it with float(x)`},
		{`n * name > 0`, false, `n * name: a number cannot be used in "*" with the text "web1"`},
		{`n + mtime > 0`, false, `n + mtime: a number cannot be used in "+" with the text`},
		{`n - float(mtime) < 0`, true, ""},
	})
}

// TestDateZeroDayOverASpacePaddedDaySaysUnderscore: openssl pads a day
// under 10 with a space (notAfter=Jan  5 22:00:00 2027 GMT), and a layout
// written "Jan 02 …" reads the 10th to the 31st and fails on the 1st to
// the 9th, so a certificate check written in mid-December failed on the
// 5th of January with only Go's `cannot parse "5 22:00:00 2027 GMT" as
// "02"` (wave-pki). The error says to write _2; a text the layout reads
// is unchanged.
func TestDateZeroDayOverASpacePaddedDaySaysUnderscore(t *testing.T) {
	t.Parallel()
	env := mapEnv{"early": "Jan  5 22:00:00 2027 GMT", "late": "Dec 16 22:00:00 2026 GMT", "checked": "2027-01-05T22:00:00Z"}
	runOutcomes(t, env, []outcomeCase{
		{`date(early, "Jan 02 15:04:05 2006 MST") == date(checked)`, false, `write _2 for such a day: date(x, "Jan _2 15:04:05 2006 MST")`},
		{`date(late, "Jan 02 15:04:05 2006 MST") < date(checked)`, true, ""},
		{`date(early, "Jan _2 15:04:05 2006 MST") == date(checked)`, true, ""},
	})
}

// TestDateOfAnEpochSaysItsUnit: date() of an epoch said to compare it
// with now().Unix(), the seconds, whatever it counted. A backup tool's
// JSON stamp in milliseconds (1796605323123) so compared is a thousand
// times now: now().Unix() - x is negative, less than any maximum age,
// and a backup that stopped a week ago read as fresh. systemd's
// list-timers --output=json counts microseconds, `date +%s%N`
// nanoseconds. The error says the unit its digits count, and the now()
// of that unit; a digit text is said so too.
func TestDateOfAnEpochSaysItsUnit(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": map[string]any{"sec": 1796605323, "ms": 1796605323123, "us": 1796605323123456, "ns": int64(1796605323123456789), "msText": "1796605323123"}}
	runOutcomes(t, env, []outcomeCase{
		{`date(s.sec) < now()`, false, "seconds since the epoch: compare it as a number, now().Unix() - x"},
		{`date(s.ms) < now()`, false, "milliseconds since the epoch: compare it as a number, now().UnixMilli() - x (now().Unix() counts seconds"},
		{`date(s.us) < now()`, false, "microseconds since the epoch: compare it as a number, now().UnixMicro() - x"},
		{`date(s.ns) < now()`, false, "nanoseconds since the epoch: compare it as a number, now().UnixNano() - x"},
		{`date(s.msText) < now()`, false, "milliseconds since the epoch: compare it as a number, now().UnixMilli() - int(x)"},
		{`now().UnixMilli() - s.ms > 0`, true, ""},
	})
}

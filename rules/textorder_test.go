package rules

import (
	"strings"
	"testing"
)

// TestNumbersWrittenAsTextHaveNoOrder: df's "100%" and a threshold
// written "90%" are text, and text orders by character, so "100%" gte
// "90%" was false: a full filesystem passed the threshold, the decider took
// its default, and a Nagios check said OK. Two numbers written as text
// (a bare number, or one with a unit) now have no order, in a filter and
// in an expression alike, and the reason says to compare the numbers.
// Text that is more than a number orders as it did.
func TestNumbersWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "are numbers written as text"
	env := mapEnv{"fs": map[string]any{"use": "100%", "free": "900000 kB", "size": "1.5G", "n": "10",
		"day": "2024-01-10", "ver": "1.2.10", "ip": "10.0.0.9", "at": "09:30", "word": "beta"}}
	tests := []outcomeCase{
		{`fs.use >= "90%"`, false, `fs.use >= "90%": "100%" and "90%" ` + why},
		{`fs.use < "90%"`, false, why},
		{`fs.free < "2000000 kB"`, false, why},
		{`fs.size > "900M"`, false, why},
		{`fs.n > "9"`, false, why},
		{`"90%" <= fs.use`, false, why},
		{`fs.day > "2024-01-09"`, true, ""},
		{`fs.ver > "1.2.9"`, false, "are versions written as text"}, // text and a version's order disagree: TestVersionsWrittenAsTextHaveNoOrder
		{`fs.ip < "10.0.0.10"`, false, "are versions written as text"},
		{`fs.ver > "1.2.1"`, true, ""}, // they agree
		{`fs.at < "10:00"`, true, ""},
		{`fs.word > "alpha"`, true, ""},
		{`int(trimSuffix(fs.use, "%")) >= 90`, true, ""},
		{`len(fs.use) > 3`, true, ""},
	}
	runOutcomes(t, env, tests)
	filters := []struct {
		key, op string
		want    any
		matched bool
		reason  string
	}{
		{"fs.use", "gte", "90%", false, why},
		{"fs.use", "lt", "90%", false, why},
		{"fs.free", "lt", "2000000 kB", false, why},
		{"fs.day", "gt", "2024-01-09", true, ""},
		{"fs.word", "gt", "alpha", true, ""},
	}
	for _, tc := range filters {
		f := MustFilter(Where(tc.key, Op(tc.op), tc.want))
		out := f.Eval(env)
		reason := ""
		if len(out.Conditions) == 1 {
			reason = out.Conditions[0].Reason
		}
		if out.Matched != tc.matched || (tc.reason == "") != (reason == "") || !strings.Contains(reason, tc.reason) {
			t.Errorf("{%s: {%s: %q}}: matched %v, reason %q; want %v, reason with %q", tc.key, tc.op, tc.want, out.Matched, reason, tc.matched, tc.reason)
		}
	}
	for _, s := range []string{"85%", "12K", "1.5G", "24028912 kB", "-3", "+7", ".5", "10", "3 MiB"} {
		if !numeral(s) {
			t.Errorf("numeral(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"", "%", "kB", "1.2.3", "2024-01-02", "10:30", "0x10", "1e5", "12 ", "5 days", "1,234", "v1", "12MB/s"} {
		if numeral(s) {
			t.Errorf("numeral(%q) = true, want false", s)
		}
	}
}

// TestTimesWrittenAsTextHaveNoOrder: a backup tool's time with a zone
// ("2026-12-06T10:00:00+02:00", which is 08:00 UTC) compared with a
// cut-off "2026-12-06T09:00:00Z" was ordered by its characters, so
// `backup.time < cutoff` was false: a backup older than the cut-off read
// fresh, Known. So was a time with a fraction of a second against one
// without, `date`'s output (Sun orders after Mon) and openssl's notAfter
// (Dec orders before Jan), and two durations ("90s" after "1h30m"). Two
// times, or two durations, written as text now have no order, in a filter
// and an expression alike, and the reason says how to compare them; a
// date alone and a time of day order as before, and date(x) compares.
func TestTimesWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const times, durations = "are times written as text", "are durations written as text"
	env := mapEnv{
		"backup": map[string]any{"time": "2026-12-06T10:00:00+02:00", "at": "2026-12-06T10:00:01Z",
			"day": "2026-12-06", "took": "90s", "clock": "09:30"},
		"cutoff":  "2026-12-06T09:00:00Z",
		"precise": "2026-12-06T10:00:01.5Z",
		"shell":   map[string]any{"sun": "Sun Dec  6 10:15:22 UTC 2026", "mon": "Mon Dec  7 10:15:22 UTC 2026"},
		"cert":    map[string]any{"notAfter": "Dec 11 10:15:48 2026 GMT", "renewBy": "Jan  2 03:04:05 2027 GMT"},
		"sys":     map[string]any{"log": "Dec  6 10:15:22", "last": "Nov 30 23:59:59"},
		"limit":   "1h30m",
	}
	tests := []outcomeCase{
		{`backup.time < cutoff`, false, `backup.time < cutoff: "2026-12-06T10:00:00+02:00" and "2026-12-06T09:00:00Z" ` + times},
		{`backup.time >= cutoff`, false, times},
		{`backup.at > precise`, false, times},
		{`shell.sun < shell.mon`, false, times},
		{`cert.notAfter < cert.renewBy`, false, times},
		{`sys.log > sys.last`, false, times},
		{`backup.took < limit`, false, `"90s" and "1h30m" ` + durations},
		{`date(backup.time) < date(cutoff)`, true, ""},
		{`date(backup.at) < date(precise)`, true, ""},
		{`duration(backup.took) < duration(limit)`, true, ""},
		{`backup.day > "2026-12-05"`, true, ""},
		{`backup.clock < "10:00"`, true, ""},
	}
	runOutcomes(t, env, tests)
	f := MustFilter(Where("backup.time", Op("lt"), "2026-12-06T09:00:00Z"))
	out := f.Eval(env)
	if out.Matched || len(out.Conditions) != 1 || !strings.Contains(out.Conditions[0].Reason, times) {
		t.Errorf("{backup.time: {lt: cutoff}}: matched %v, conditions %+v; want no match and a reason saying %q", out.Matched, out.Conditions, times)
	}
}

// TestNumbersInTwoUnitsSayBringThemToOne: a node's allocatable memory
// "15242940Ki" against "8Gi" was refused with the hint trimSuffix(x,
// "%"), which compares neither; two units say to bring both to one, and
// one unit says to trim that unit.
func TestNumbersInTwoUnitsSayBringThemToOne(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, b, want string }{
		{"15242940Ki", "8Gi", `they are in different units ("Ki" and "Gi"), so trimming them compares neither: bring both to one unit, then compare the numbers`},
		{"500m", "1", `one has a unit ("m") and the other none`},
		{"500m", "250m", `compare the numbers (int(trimSuffix(x, "m")), or a parse mode's number)`},
		{"100%", "90%", `compare the numbers (int(trimSuffix(x, "%")), or a parse mode's number)`},
		{"24028912 kB", "900000 kB", `int(trimSuffix(x, " kB"))`},
		{"10", "9", `compare the numbers (float(x), or a parse mode's number)`},
	}
	for _, tc := range tests {
		_, reason := compare(tc.a, tc.b)
		if !strings.Contains(reason, tc.want) {
			t.Errorf("%q vs %q: %q, want it to say %q", tc.a, tc.b, reason, tc.want)
		}
	}
}

// TestDatesTextDoesNotOrderHaveNoOrder: a partitions export whose dates a
// spreadsheet wrote day first ("06.12.2026", "30.11.2026"), month first
// ("12/06/2026"), or without leading zeros ("2026-9-30"), was ordered by
// character: the 6th of December read as before the 30th of November,
// and a rule over the last week's partitions judged a fresh one stale.
// Stamps to the minute ("2026-12-06 10:00" beside "2026-12-06T09:00Z")
// were no times to timeText, and ordered by the space before the T. Such
// pairs have no order now, and the reason says to compare the dates; two
// ISO dates with their zeros still order as text, which is their order.
func TestDatesTextDoesNotOrderHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "are dates written as text"
	env := mapEnv{"p": map[string]any{"de": "06.12.2026", "us": "12/06/2026", "bare": "2026-9-30", "iso": "2026-12-01",
		"min": "2026-12-06 10:00", "minz": "2026-12-06T09:00Z"}}
	runOutcomes(t, env, []outcomeCase{
		{`p.de < "30.11.2026"`, false, why},
		{`p.us > "11/30/2027"`, false, why},
		{`p.bare >= p.iso`, false, why},
		{`p.iso > "2026-9-30"`, false, why},
		{`p.min < p.minz`, false, "are times written as text"},
		{`p.iso > "2026-11-30"`, true, ""},
		{`p.iso < "2026-12-02"`, true, ""},
		{`p.iso < "2026/11/02"`, false, why}, // '-' orders before '/'

		{`"1.2.10" > "1.2.9"`, false, ""}, // two constants stay expr's own operator; a value read is judged (TestVersionsWrittenAsTextHaveNoOrder)
		{`last(sort(["06.12.2026", "30.11.2026"])) == "06.12.2026"`, false, why},
		{`last(sort(["2026-11-30", "2026-12-06"])) == "2026-12-06"`, true, ""},
	})
	f := MustFilter(Where("p.de", Op("lt"), "30.11.2026"))
	if out := f.Eval(env); out.Matched || len(out.Conditions) != 1 || !strings.Contains(out.Conditions[0].Reason, why) {
		t.Errorf("{p.de: {lt: 30.11.2026}}: %+v; want no match and the reason %q", out, why)
	}
}

// TestGroupedNumbersWrittenAsTextHaveNoOrder: row counts a spreadsheet or
// printf "%'d" grouped by thousands ("12,500", "9,800") are text, and
// text put "12,500" before "9,800": a rule asking whether today's load
// fell below yesterday's (p.today < p.yesterday) held over a load that
// grew. A pair of them, or one beside a plain number written as text, has
// no order now; the reason says to take the commas out.
func TestGroupedNumbersWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "are numbers written as text"
	env := mapEnv{"p": map[string]any{"today": "12,500", "yesterday": "9,800", "plain": "999", "ports": "22,80,443"}}
	runOutcomes(t, env, []outcomeCase{
		{`p.today < p.yesterday`, false, why},
		{`p.today < p.plain`, false, why},
		{`p.ports < p.plain`, true, ""}, // not grouped by thousands, nor a decimal comma: text, as before
		{`float(replace(p.today, ",", "")) > float(replace(p.yesterday, ",", ""))`, true, ""},
	})
}

// TestLocaleNumbersWrittenAsTextHaveNoOrder: a command run under its own
// locale, where runbook's LC_NUMERIC=C does not reach (`docker exec db df
// -h` in an image whose LANG is de_DE.UTF-8, a remote shell, su -), prints
// "1,5G", "4,54", "12 345" (fr_FR's U+202F too); text put "1,5G" before
// "1G" and "4,54" after "10", so a volume over its limit stood under it
// and a load of four read as over ten, with no word
// (testdata/wave-locale/container-df). Such a number beside another or a
// numeral has no order now, in an expression and a filter; a whole number
// grouped by points stays a dotted text (a version, an address), and a
// list of more than two items stays text.
func TestLocaleNumbersWrittenAsTextHaveNoOrder(t *testing.T) {
	t.Parallel()
	const why = "in a locale's form"
	env := mapEnv{"d": map[string]any{
		"used": "1,5G", "small": "900M", "load": "4,54", "today": "12,5", "yesterday": "9,8",
		"fr": "1\u202f234,5", "nbsp": "12\u00a0345", "space": "12 345", "ch": "1'234'567", "de": "1.234,5",
		"pct": "4,5 %", "ip": "192.168.100.200", "ver": "1.234.567", "list": "22,80,443"}}
	runOutcomes(t, env, []outcomeCase{
		{`d.used >= "1G"`, false, why},
		{`d.used > d.small`, false, `each brought to one unit first ("G" and "M" are not one)`},
		{`d.load > "10"`, false, why},
		{`d.today < d.yesterday`, false, why},
		{`d.fr > "999"`, false, why},
		{`d.nbsp > "999"`, false, why},
		{`d.space > "9 999"`, false, why},
		{`d.ch > "999"`, false, why},
		{`d.de > "999"`, false, `float(replace(replace(replace(x, ".", ""), " ", ""), ",", "."))`},
		{`d.pct > "10 %"`, false, why},
		{`d.used >= "1G"`, false, `float(replace(trimSuffix(x, "G"), ",", "."))`},
		{`d.ip > "10.0.0.1"`, true, ""},
		{`d.list < "999"`, true, ""},
		{`float(replace(d.load, ",", ".")) < 10`, true, ""},
		// beside a number it was an error already; it says now that
		// float(x) does not read it, and what does
		{`d.load > 10`, false, `"4,54", a number in a locale's form`},
	})
	for _, tc := range []struct {
		key  string
		want any
	}{{"d.used", "1G"}, {"d.load", "10"}, {"d.today", "9,8"}, {"d.load", 10}} {
		out := MustFilter(Where(tc.key, OpGte, tc.want)).Eval(env)
		if c := out.Conditions[0]; !c.Unjudged() || !strings.Contains(c.Reason, why) {
			t.Errorf("filter %s gte %v: unjudged %v reason %q, want a reason saying %q", tc.key, tc.want, c.Unjudged(), c.Reason, why)
		}
	}
}

// TestNumeralsHintReadsAFractionWithFloat: df -h's "6.5G" beside "2G"
// was told to compare int(trimSuffix(x, "G")), which cannot read "6.5";
// a fraction on either side is read with float.
func TestNumeralsHintReadsAFractionWithFloat(t *testing.T) {
	t.Parallel()
	env := mapEnv{"fs": map[string]any{"avail": "6.5G", "size": "24G", "mem": "1.5 GB"}}
	runOutcomes(t, env, []outcomeCase{
		{`fs.avail < "2G"`, false, `compare the numbers (float(trimSuffix(x, "G"))`},
		{`fs.size < "2G"`, false, `compare the numbers (int(trimSuffix(x, "G"))`},
		{`fs.mem > "2 GB"`, false, `compare the numbers (float(trimSuffix(x, " GB"))`},
	})
}

// TestPostgresTextsHaveNoOrder: psql prints a transaction's age
// (now() - xact_start) as "1 day 00:00:01" past a day, a timestamptz as
// "2026-12-06 21:00:00+01" (an offset of hours alone) and
// pg_size_pretty's small sizes as "8192 bytes". Text ordered each by
// character, with no word: a transaction open a day was younger than a
// limit of "23:00:00", 20:00 UTC written in +01 was after 20:30 UTC, and
// "8192 bytes" was bigger than "12 MB" (the chart is
// testdata/wave-dba/textorder.yaml). Such pairs have no order now; two
// clocks of two-digit hours order as times of day, rightly, as before.
func TestPostgresTextsHaveNoOrder(t *testing.T) {
	t.Parallel()
	const intervals, times, numbers = "are intervals written as text", "are times written as text", "are numbers written as text"
	env := mapEnv{"x": map[string]any{
		"day": "1 day 00:00:01", "long": "100:00:00", "neg": "-00:00:05", "days": "3 days", "mixed": "1 year 2 mons -3 days +04:05:06",
		"five": "00:05:00", "frac": "00:05:00.123", "ten": "00:10:00",
		"tstz": "2026-12-06 21:00:00+01", "utc": "2026-12-06 20:30:00+00", "half": "2026-12-06 21:00:00.5+05:30",
		"small": "8192 bytes", "big": "12 MB",
	}}
	runOutcomes(t, env, []outcomeCase{
		{`x.day > "23:00:00"`, false, `x.day > "23:00:00": "1 day 00:00:01" and "23:00:00" ` + intervals},
		{`x.long > "23:00:00"`, false, intervals},
		{`x.neg < "-00:00:01"`, false, intervals},
		{`x.days < "10 days"`, false, intervals},
		{`x.mixed > x.day`, false, intervals},
		{`x.ten > x.five`, true, ""},
		{`x.frac > x.five`, true, ""},
		{`x.tstz > x.utc`, false, `"2026-12-06 21:00:00+01" and "2026-12-06 20:30:00+00" ` + times},
		{`x.half < x.utc`, false, times},
		{`date(x.tstz, "2006-01-02 15:04:05Z07") < date(x.utc, "2006-01-02 15:04:05Z07")`, true, ""},
		{`x.small > x.big`, false, `"8192 bytes" and "12 MB" ` + numbers},
		{`x.small < "9000 bytes"`, false, numbers},
	})
	f := MustFilter(Where("x.day", Op("gt"), "23:00:00"))
	if out := f.Eval(env); out.Matched || len(out.Conditions) != 1 || !strings.Contains(out.Conditions[0].Reason, intervals) {
		t.Errorf("{x.day: {gt: 23:00:00}}: %+v; want no match and the reason %q", out, intervals)
	}
}

// TestCommaThenThreeDigitsHintGivesBothReadings: rsync --stats writes
// its counts grouped by commas under C too ("Number of deleted files:
// 1,500"), and a guard against a mass delete was told to compare
// float(replace(x, ",", ".")), which reads 1.5 and stands under a limit
// of 100. A comma followed by three digits is a decimal comma or a
// thousands group, and no text says which: the hint gives both.
func TestCommaThenThreeDigitsHintGivesBothReadings(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": map[string]any{"deleted": "1,500", "big": "12,345,678", "used": "1,500G", "load": "4,54"}}
	both := `float(replace(x, ",", "")) for thousands, float(replace(x, ",", ".")) for a decimal comma`
	runOutcomes(t, env, []outcomeCase{
		{`s.deleted > 100`, false, both},
		{`s.deleted > "100"`, false, both},
		{`s.big > 100`, false, `a number grouped by thousands, which float(x) does not read: have the command print no grouping (rsync --no-h), or compare the numbers: float(replace(x, ",", ""))`},
		{`s.used > "2G"`, false, `float(replace(trimSuffix(x, "G"), ",", "")) for thousands`},
		{`s.deleted > 100`, false, "rsync --no-h"},
		// a comma not before three digits is a decimal comma alone
		{`s.load > 10`, false, `compare the numbers: float(replace(x, ",", "."))`},
	})
}

// TestNoValueMarkBesideANumberSaysWhatItIs: jstat -gcutil under the
// Parallel and Serial collectors prints "-" for CGC and CGCT (no
// concurrent cycle), and `gc.CGC > 10` said only that a number cannot be
// ordered with a text and to read it with float(x), which fails on "-".
// It is a rule error as before (no match), and says now what "-" is and
// how to say what it means; a filter condition says the same.
func TestNoValueMarkBesideANumberSaysWhatItIs(t *testing.T) {
	t.Parallel()
	const why = `the text "-", the mark a tool prints where it has no value`
	env := mapEnv{"gc": map[string]any{"CGC": "-", "FGC": 3}}
	runOutcomes(t, env, []outcomeCase{
		{`gc.CGC > 10`, false, why},
		{`10 <= gc.CGC`, false, why},
		{`gc.CGC != "-" && gc.CGC > 10`, false, ""},
		{`gc.FGC > 2`, true, ""},
		{`gc.FGC > 10`, false, ""},
	})
	out := MustFilter(Where("gc.CGC", OpGt, 10)).Eval(env)
	if c := out.Conditions[0]; !c.Unjudged() || !strings.Contains(c.Reason, why) {
		t.Errorf("filter gc.CGC gt 10: unjudged %v reason %q, want a reason saying %q", c.Unjudged(), c.Reason, why)
	}
}

// TestEmptyTextBesideANumberSaysItHoldsNoValue: a replication check read
// pg_stat_replication with psql --csv, and an idle primary's replay lag
// is NULL, an empty field, which csv reads as the text "". `r.replay_s >
// 30` said only that a number cannot be ordered with a text, and to read
// it with float(x), which fails over "" as well (wave-pgrepl/lag). It
// says the text is empty, a field with no value, and to say what that
// means before the comparison.
func TestEmptyTextBesideANumberSaysItHoldsNoValue(t *testing.T) {
	t.Parallel()
	const why = `the empty text "", what csv and tsv read for a field with no value`
	env := mapEnv{"r": map[string]any{"replay_s": "", "replay_bytes": 0}}
	runOutcomes(t, env, []outcomeCase{
		{`r.replay_s > 30`, false, why},
		{`30 <= r.replay_s`, false, why},
		{`r.replay_s != "" && r.replay_s > 30`, false, ""},
		{`r.replay_bytes > 16777216`, false, ""},
	})
}

// TestIntervalBesideANumberSaysToAskForSeconds: pg_stat_replication's
// replay_lag read with psql --csv is an interval written as text,
// "00:00:03.291695" (and "1 day 02:00:00" past a day), and `r.replay_lag
// > 30` said only to read the text with float(x), which fails over it.
// It says the text is an interval as PostgreSQL writes it (or a clock)
// and to have the query give seconds (wave-pgrepl/lag).
func TestIntervalBesideANumberSaysToAskForSeconds(t *testing.T) {
	t.Parallel()
	const why = `have the query give seconds, extract(epoch from x)`
	env := mapEnv{"r": map[string]any{"replay_lag": "00:00:03.291695", "age": "1 day 02:00:00", "load": "4.5x"}}
	runOutcomes(t, env, []outcomeCase{
		{`r.replay_lag > 30`, false, why},
		{`30 < r.age`, false, why},
		{`r.load > 3`, false, "a number cannot be ordered with a text"},
	})
}

package rules

import (
	"strings"
	"testing"
)

// TestFetchFromNullSaysWhatWouldBeRight: a predicate reading
// .lastState.terminated.reason over a container whose lastState is {}
// (one that never restarted, as Kubernetes prints it) failed with expr's
// own words, "cannot fetch reason from <nil> (1:48)", which say neither
// that the value was null nor what to write. The rule error says both.
func TestFetchFromNullSaysWhatWouldBeRight(t *testing.T) {
	t.Parallel()
	env := mapEnv{"cs": []any{
		map[string]any{"name": "web", "lastState": map[string]any{}},
		map[string]any{"name": "db", "lastState": map[string]any{"terminated": map[string]any{"reason": "OOMKilled"}}},
	}, "x": nil}
	tests := []struct{ src, want string }{
		{`any(cs, .lastState.terminated.reason == "OOMKilled")`, `cannot read the member "reason" of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with ?.reason and give a default with ?? (1:`},
		{`x[0] == 1`, `cannot read the item 0 of null`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(env)
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
	// Written to allow it, the rule is judged.
	if out := MustCompile(`any(cs, .lastState.terminated?.reason == "OOMKilled")`).Eval(env); !out.Matched || out.Err != "" {
		t.Errorf("?. read: %+v", out)
	}
}

// TestDurationInDaysSaysHours: duration("7d"), as a certificate or pod-age
// chart writes a week, failed with Go's `time: unknown unit "d" in
// duration "7d"`, which does not say what to write; it now says Go's
// units and the hours.
func TestDurationInDaysSaysHours(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{`now() - now() > duration("7d")`, `time: unknown unit "d" in duration "7d": a duration's units are ns, us, ms, s, m and h (no d or w), so write "168h" for "7d" (1:`},
		{`now() - now() > duration("2w")`, `so write "336h" for "2w"`},
		{`now() - now() > duration("1.5d")`, `(no d or w), so a day is "24h"`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(mapEnv{})
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
}

// TestSystemdTimeSpanSaysTheGoDuration: systemctl list-timers and
// systemctl status write spans as "5min 3s", "4h 4min", "4 days",
// "1 week 2 days", and a chart that read one with duration(x) was told
// `unknown unit "h " in duration "4h 4min"` and that a day is "24h":
// neither says that Go's durations have no spaces and no "min". The
// error gives the Go duration now, and a span of months or years, which
// have no one length, is said so.
func TestSystemdTimeSpanSaysTheGoDuration(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{`duration("5min 3s")`, `so write "5m3s" for "5min 3s" (systemd writes a span with spaces and "min"`},
		{`duration("4h 4min")`, `so write "4h4m" for "4h 4min"`},
		{`duration("4 days")`, `so write "96h" for "4 days"`},
		{`duration("1 week 2 days")`, `so write "216h" for "1 week 2 days"`},
		{`duration("2s 500ms")`, `so write "2.5s" for "2s 500ms"`},
		{`duration("55min")`, `so write "55m" for "55min"`},
		{`duration("1month 2w")`, `"1month 2w" counts months or years, which have no one length`},
		{`duration("7d")`, `so write "168h" for "7d"`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(mapEnv{})
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
}

// TestISODurationAndBareNumberSayTheGoDuration: a job's maximum age
// written as ISO 8601 (P1DT2H, as a backup tool's JSON or an Ansible var
// gives it) said only Go's `time: invalid duration "P1DT2H"`, and a bare
// number (`90`, a timeout in seconds from a config file) `time: missing
// unit in duration "90"`: neither says what to write. They say the Go
// duration now, and a period of months or years, which have no one
// length, is said so; a bare number is never given a unit by guess.
func TestISODurationAndBareNumberSayTheGoDuration(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, want string }{
		{`duration("P1DT2H")`, `time: invalid duration "P1DT2H": "P1DT2H" is an ISO 8601 duration; Go writes it "26h"`},
		{`duration("PT1H30M")`, `Go writes it "1h30m"`},
		{`duration("PT90S")`, `Go writes it "1m30s"`},
		{`duration("P2W")`, `Go writes it "336h"`},
		{`duration("PT0.5S")`, `Go writes it "500ms"`},
		{`duration("P1M")`, `counts months or years, which have no one length`},
		{`duration("90")`, `time: missing unit in duration "90": a number with no unit is no duration; say what it counts: "90s" for seconds, "90m" for minutes (in an expression, duration(string(x) + "s") reads a number of seconds)`},
	}
	for _, tc := range tests {
		out := MustCompile(tc.src).Eval(mapEnv{})
		if out.Matched || !strings.Contains(out.Err, tc.want) {
			t.Errorf("%s: err %q, want one saying %q", tc.src, out.Err, tc.want)
		}
	}
}

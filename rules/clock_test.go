package rules

import (
	"strings"
	"testing"
	"time"
)

// clockEnv is a scope whose clock reads at.
type clockEnv struct {
	mapEnv
	at time.Time
}

func (c clockEnv) Now() time.Time { return c.at }

// TestNowReadsTheEvaluationsClock: now() read the host's clock whatever
// the run said, so a chart's test of "the certificate has expired" passed
// or failed by the day it ran, and the evidence never said what time the
// rule had judged against. now() now reads the Env's clock (rules.Clock),
// once an evaluation, and the evidence holds what it read as the input
// `now()`; an Env with no clock reads the host's.
func TestNowReadsTheEvaluationsClock(t *testing.T) {
	t.Parallel()
	at := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	env := clockEnv{mapEnv{"cert": map[string]any{"notAfter": "Dec 20 10:00:00 2026 GMT"}}, at}
	e := MustCompile(`date(cert.notAfter, "Jan _2 15:04:05 2006 MST") < now() && now() == now(timezone("Europe/Berlin"))`)
	out := e.Eval(env)
	if !out.Matched || out.Err != "" {
		t.Fatalf("matched %v, err %q; want the cert expired on the clock of 2027-01-01", out.Matched, out.Err)
	}
	last := out.Inputs[len(out.Inputs)-1]
	if last.Path != ClockInput || last.Value != "2027-01-01T00:00:00Z" {
		t.Errorf("inputs %+v; want the last one now() = 2027-01-01T00:00:00Z", out.Inputs)
	}
	v, _, err := MustCompile(`now()`).Value(env)
	if err != nil || v != "2027-01-01T00:00:00Z" {
		t.Errorf("now() = %v, %v; want the clock's time as text", v, err)
	}
	host := MustCompile(`now()`).Eval(env.mapEnv)
	if host.Err == "" || len(host.Inputs) != 1 || host.Inputs[0].Path != ClockInput {
		t.Errorf("without a clock: %+v; want the host's time read and said", host)
	}
}

// TestNowAsTextIsATime: string(now()) held time.Now's monotonic reading
// (" m=-3599.995698273"), so it was no time to textOrder, and a pod
// created at 03:00 compared after "now - 1h" at 14:24 by character ('T'
// after ' '): a rule error now, as two times written as text are, and the
// text holds no reading that differs run to run.
func TestNowAsTextIsATime(t *testing.T) {
	t.Parallel()
	env := mapEnv{"created": "2026-12-06T03:00:00Z"}
	v, _, err := MustCompile(`string(now())`).Value(env)
	if s, _ := v.(string); err != nil || strings.Contains(s, "m=") {
		t.Fatalf("string(now()) = %q, %v; want no monotonic reading", v, err)
	}
	out := MustCompile(`created > string(now() - duration("1h"))`).Eval(env)
	if out.Matched || !strings.Contains(out.Err, "are times written as text") {
		t.Fatalf("out = %+v; want the times-as-text rule error", out)
	}
	// The error quotes the comparison as written, not as the patches
	// that rewrote now() and string() left it.
	if !strings.HasPrefix(out.Err, `created > string(now() - duration("1h")): "2026-12-06T03:00:00Z" and "`) {
		t.Errorf("err = %q; want the comparison as written first", out.Err)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// k8sRun runs the CLI in testdata/k8s with its stand-in kubectl and
// openssl first on PATH: they print real clusters' output (fx/), so the
// charts' runs give the same bytes anywhere.
func k8sRun(t *testing.T, args ...string) result {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "k8s"))
	if err != nil {
		t.Fatal(err)
	}
	return runCLIEnv(t, dir, []string{"PATH=" + filepath.Join(dir, "bin") + ":" + os.Getenv("PATH")}, args...)
}

// TestK8sDeploymentDownIsNotOkOverAnOmittedField: Kubernetes leaves a
// Deployment's status.availableReplicas out when none is available, so
// the filter rule {d.status.availableReplicas: {lt: 1}} read "key not
// present" over shop/worker, 0 of 2 available, a plain no: the check said
// `deploy-avail OK - 4 ok`, `OK shop/worker: ok`, Consistent, exit 0 —
// where the same rule as an expression was a rule-error. A filter
// condition whose key its object lacks is no judgement (exists asks
// about presence), and the check is UNKNOWN, saying where the key was
// missing and how to say what its absence means. batch-ui, scaled to
// zero, lacks the field too, but its replicas: {gte: 1} is judged false,
// which answers the rule: it is no rule error.
func TestK8sDeploymentDownIsNotOkOverAnOmittedField(t *testing.T) {
	t.Parallel()
	r := k8sRun(t, "exec", "deployments-filter.yaml", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "deploy-avail UNKNOWN - 1 rule could not be evaluated (Availability), 4 ok (1 not judged: shop/worker)\n") {
		t.Fatalf("exit %d, want 3 (UNKNOWN), with one rule named:\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`its condition on d.status.availableReplicas (lt) read no value: d.status has no member "availableReplicas"`,
		`(its members: conditions, observedGeneration, replicas, unavailableReplicas, updatedReplicas)`,
		`{d.status.availableReplicas: {exists: false}}`,
		"\nNot sure — ",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output does not say %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "its members: conditions, observedGeneration)") {
		t.Errorf("batch-ui (replicas 0, judged false) is said as a rule error:\n%s", r.stdout)
	}

	// Said as its absence means, the answer stands: worker down, api
	// degraded, batch-ui ok, Consistent.
	r = k8sRun(t, "exec", "deployments.yaml", "--format", "nagios")
	want := "deploy-avail CRITICAL - 1 down (shop/worker), 1 degraded, 2 ok | down=1;;;0 degraded=1;;;0 ok=2;;;0\n" +
		"OK shop/web: ok (available: 3/3)\n" +
		"CRITICAL shop/worker: down (available: 0/2)\n" +
		"WARNING shop/api: degraded (available: 3/4)\n" +
		"OK jobs/batch-ui: ok (available: 0/0)\n" +
		"Consistent with the run's record — 2 honesty checks ran (label, coverage) and none found a reason for doubt; this is not a verification.\n"
	if r.code != 2 || r.stdout != want {
		t.Fatalf("exit %d, want 2:\n%s%s\nwant:\n%s", r.code, r.stdout, r.stderr, want)
	}
}

// TestK8sFetchFromNullSaysWhatToWrite: a predicate reading
// .lastState.terminated.reason over containers whose lastState is {}
// (every container that never restarted) was a rule error in expr's own
// words, `cannot fetch reason from <nil> (1:61)`, which say neither that
// the value was null nor what to write. They say both now.
func TestK8sFetchFromNullSaysWhatToWrite(t *testing.T) {
	t.Parallel()
	r := k8sRun(t, "exec", "oom-naive.yaml", "--format", "nagios")
	if r.code != 3 {
		t.Fatalf("exit %d, want 3 (UNKNOWN):\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := `decider "OOM" could not evaluate rule 1 ("A container was OOM-killed") in 4 of its decisions and counted it as no match each time: cannot read the member "reason" of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with ?.reason and give a default with ?? (1:61)`
	if !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "cannot fetch") {
		t.Errorf("output does not say\n  %s\n%s", want, r.stdout)
	}
}

// TestK8sWhyNotSaysARuleCouldNotBeEvaluated: explain --why-not down said
// of shop/worker's rule, whose key Kubernetes had left out, `rule 1 "No
// replica available" → down: did not match`, as if the deployment had
// been judged to have replicas available; the rule could not be
// evaluated and was counted as no match, and explain now says that.
func TestK8sWhyNotSaysARuleCouldNotBeEvaluated(t *testing.T) {
	t.Parallel()
	rec := filepath.Join(t.TempDir(), "run.json")
	if r := k8sRun(t, "exec", "deployments-filter.yaml", "--record", rec); r.code != 0 {
		t.Fatalf("exec: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := k8sRun(t, "explain", rec, "--why-not", "down")
	want := "  in per-dep~1: avail (Availability) chose ok, not down\n" +
		"    rule 1 \"No replica available\" → down: could not be evaluated, counted as no match\n" +
		"      ✗ d.status.availableReplicas = (missing) lt 1: d.status has no member \"availableReplicas\""
	if r.code != 0 || !strings.Contains(r.stdout, want) {
		t.Errorf("exit %d; explain --why-not does not say\n%s\n---\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "  in per-dep~0: avail (Availability) chose ok, not down\n    rule 1 \"No replica available\" → down: did not match\n") {
		t.Errorf("a rule judged false is not said as one:\n%s", r.stdout)
	}
}

// TestK8sTimeComparedWithNowAsTextIsNotSure: string(now() - 1h) held
// Go's monotonic reading (`… +0000 UTC m=-3599.99`), which no layout
// reads as a time, so the pod's RFC 3339 creationTimestamp was compared
// with it by character: jobs/report-29001234-abcde, created at 03:00,
// was "new" against a cutoff of 14:24 ('T' sorts after ' '), Consistent.
// The two are times written as text, a rule error in every decision.
func TestK8sTimeComparedWithNowAsTextIsNotSure(t *testing.T) {
	t.Parallel()
	r := k8sRun(t, "exec", "new-pods.yaml", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "new-pods UNKNOWN - 1 rule could not be evaluated (Age), 7 ok") {
		t.Fatalf("exit %d, want 3 (UNKNOWN):\n%s%s", r.code, r.stdout, r.stderr)
	}
	// Each decision read its own now(), so each says its own cutoff.
	want := `UNKNOWN: decider "Age" could not evaluate rule 1 ("Created in the last hour") and counted it as no match: p.metadata.creationTimestamp > string(now() - duration("1h")): "2026-12-06T03:00:00Z" and "`
	if !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, " +0000 UTC\" are times written as text") || strings.Contains(r.stdout, "m=") {
		t.Errorf("output does not say\n  %s\nof the times written as text:\n%s", want, r.stdout)
	}
}

// TestK8sFromPairsDropsNoPod: fromPairs(map(pods, [.metadata.name,
// .status.phase])) over a StatefulSet's db-0 in two namespaces kept the
// last pair: staging's Failed (Evicted) db-0 was gone, `phases OK - 2
// ok`, Consistent, exit 0. A key given twice with two values is an error
// naming both, and the run is UNKNOWN.
func TestK8sFromPairsDropsNoPod(t *testing.T) {
	t.Parallel()
	r := k8sRun(t, "exec", "phases.yaml", "--inputs", "fx/two-db0.json", "--format", "nagios")
	want := `phases UNKNOWN - the run failed at byname: set phase: fromPairs(map(pods, [.metadata.name, .status.phase])): fromPairs: the key "db-0" is given twice, by pairs 0 and 1, with two values ("Failed" and "Running")`
	if r.code != 3 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("exit %d, want 3 and\n  %s\n---\n%s%s", r.code, want, r.stdout, r.stderr)
	}
}

// TestK8sSetOverAnOmittedFieldIsNotOk: Kubernetes leaves a Deployment's
// status.readyReplicas out when none is ready. `set: {ready:
// d.status.readyReplicas}` wrote null, the rule `want > 0 && ready == 0`
// was a plain no, and the check said `deploy-ready OK - 4 ok`, OK
// shop/worker, 0 of 2 ready, Consistent, exit 0. A set: key null from a
// member its object lacks is now a not-checked item on the ledger: the
// check is UNKNOWN, naming the key and the member, until the chart says
// what the absence means (`d.status.readyReplicas ?? 0`).
func TestK8sSetOverAnOmittedFieldIsNotOk(t *testing.T) {
	t.Parallel()
	r := k8sRun(t, "exec", "ready-set.yaml", "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "deploy-ready UNKNOWN - ") {
		t.Fatalf("exit %d, want 3 (UNKNOWN):\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`the value of ready`,
		`d.status has no member "readyReplicas"`,
		`d.status.readyReplicas ?? a default`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output does not say %q:\n%s", want, r.stdout)
		}
	}
	// Said as its absence means, the answer stands.
	src, err := os.ReadFile(filepath.Join("..", "..", "testdata", "k8s", "ready-set.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", strings.Replace(string(src), "ready: d.status.readyReplicas}", "ready: d.status.readyReplicas ?? 0}", 1))
	r = k8sRun(t, "exec", chart, "--format", "nagios")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "deploy-ready CRITICAL - 1 none-ready (worker), 3 ok") || !strings.Contains(r.stdout, "\nConsistent with") {
		t.Errorf("exit %d, want 2 (CRITICAL) over the deployments none of whose replicas is ready:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

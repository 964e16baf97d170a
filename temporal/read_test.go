package temporal_test

import (
	"strings"
	"testing"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/openrunbook/runbook/runbook"
	"github.com/openrunbook/runbook/temporal"
)

// TestReadOnAWorkerKeepsWhatItCouldNotRead: a glob's folder a worker
// could not read (permission denied; here a name too long, which root
// cannot read either) came back from the read activity as the files
// alone, so the run filed no not-checked item: `read: {glob:
// '"/etc/ssl/*/*.pem"'}` on a worker run as a user stood Consistent over
// the 145 certificates it read, where the same chart run locally said Not
// sure, naming /etc/ssl/private. The activity's answer carries the whole
// read, through Temporal's encoding (the conformance chart unread.yaml
// runs it end to end).
func TestReadOnAWorkerKeepsWhatItCouldNotRead(t *testing.T) {
	var s testsuite.WorkflowTestSuite
	env := s.NewTestActivityEnvironment()
	env.RegisterActivityWithOptions(temporal.ReadActivity, activity.RegisterOptions{Name: temporal.ReadActivityName})
	dir := t.TempDir()
	glob := strings.Repeat("d", 300) + "/*.json"
	v, err := env.ExecuteActivity(temporal.ReadActivityName, runbook.ReadCall{Stage: "unread", Glob: glob, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var ans struct { // what the run reads of the answer: the whole read
		runbook.ReadStub
		Refused string
	}
	if err := v.Get(&ans); err != nil {
		t.Fatal(err)
	}
	if ans.Refused != "" || len(ans.Unread) != 1 || !strings.Contains(ans.Unread[0].Why, "file name too long") {
		t.Errorf("the read on a worker answered %+v; want the folder it could not read, and why", ans)
	}
}

package runbook_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook"
)

// TestRsyncDryRunAsAUserComparesNoOwners: rsync compares owners only when
// it runs as root. Run as a user, `rsync -a -n -i` lists nothing for a
// file whose owner differs, exits 0 and says nothing, and a drift check
// said "in sync", Consistent, of an owner changed (wave-rsync's design
// question). Such a run is now no whole answer; one as root, one that
// does not ask for owners, and one whose other side is another host are
// left as they were. A real rsync over two trees.
func TestRsyncDryRunAsAUserComparesNoOwners(t *testing.T) {
	if _, err := osexec.LookPath("rsync"); err != nil {
		t.Skip("no rsync")
	}
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src")+"/", filepath.Join(dir, "dst")+"/"
	for _, d := range []string{src, dst} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "a"), []byte("same\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	chart := func(args string) string {
		return `version: 1
runbook: drift
inputs:
  src: {type: string, required: true}
  dst: {type: string, required: true}
result: {kind: verdict/file}
stages:
  - id: diff
    exec:
      command: [rsync, ` + args + `, "${src}", "${dst}"]
      parse: lines
  - id: mark
    verdict: {subject: '"mirror"', verdict: 'len(diff.stdout) == 0 ? "in-sync" : "drift"'}
`
	}
	for _, tc := range []struct {
		name, args string
		uid        int
		notSure    bool
	}{
		{"as a user, -a -n", "-a, -n, -i", 1000, true},
		{"as a user, a bundle", "-ani", 1000, true},
		{"as a user, --archive --dry-run", "--archive, --dry-run, -i", 1000, true},
		{"as root", "-a, -n, -i", 0, false},
		{"as a user, owners not asked for", "-rlpt, -n, -i", 1000, false},
		{"as a user, owners undone", "-a, --no-owner, -n, -i", 1000, false},
		{"as a user, not a dry run", "-a, -i", 1000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer runbook.RunAs(tc.uid)()
			rec := exec(t, parse(t, chart(tc.args)), map[string]any{"src": src, "dst": dst})
			a := rec.Assessment
			found := false
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					if it.Kind == record.ItemRsyncOwners {
						found = true
						if !strings.Contains(it.Why, "uid 1000") {
							t.Errorf("the item does not say who it ran as: %s", it.Why)
						}
					}
				}
			}
			if found != tc.notSure || (a.Standing == assessment.NotSure) != tc.notSure {
				t.Errorf("item %v, standing %s (%s); want the item and not-sure %v", found, a.Standing, a.Line, tc.notSure)
			}
		})
	}
	t.Run("as a user, under a stub", func(t *testing.T) {
		// a stub's output is the stub's: who ran this test is no fact of it
		defer runbook.RunAs(1000)()
		zero := 0
		rec := exec(t, parse(t, chart("-a, -n, -i")), map[string]any{"src": src, "dst": dst},
			runbook.WithStubs(stubAll{&runbook.ExecStub{ExitCode: &zero}}))
		if a := rec.Assessment; a.Standing == assessment.NotSure {
			t.Errorf("standing %s: %s", a.Standing, a.Line)
		}
	})
}

// stubAll answers every exec with one stub.
type stubAll struct{ s *runbook.ExecStub }

func (s stubAll) Exec(context.Context, runbook.ExecCall) (*runbook.ExecStub, error) {
	return s.s, nil
}
func (stubAll) Plugin(context.Context, runbook.PluginCall) (*runbook.PluginStub, error) {
	return nil, nil
}

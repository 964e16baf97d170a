// Command disk-posture classifies the root filesystem with labelled rules and
// prints the narrative of the run: every read, write and rule it evaluated.
package main

import (
	"context"
	"fmt"
	"os"
	"syscall"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
)

func main() {
	path := "/"
	if len(os.Args) > 1 {
		path = os.Args[1]
	}
	if err := run(path); err != nil {
		fmt.Fprintln(os.Stderr, "disk-posture:", err)
		os.Exit(1)
	}
}

func run(path string) error {
	verdict := func(v string) *flow.Builder {
		return flow.Seq().Stage("mark-"+v, func(ctx context.Context, s *flow.Scope) error {
			s.Set("verdict", v)
			return nil
		})
	}
	chart, err := flow.New("disk-posture").
		Stage("measure", func(ctx context.Context, s *flow.Scope) error {
			var st syscall.Statfs_t
			if err := syscall.Statfs(path, &st); err != nil {
				return fmt.Errorf("statfs %s: %w", path, err)
			}
			s.Set("mount", path)
			s.Set("usedPct", 100-int(100*st.Bavail/max(st.Blocks, 1)))
			s.Set("inodesFreePct", int(100*st.Ffree/max(st.Files, 1)))
			return nil
		}, flow.Name("Measure")).
		Decide("posture", []decide.Rule{
			{When: rules.MustFilter(rules.Where("usedPct", rules.OpGte, 95)), Then: "critical", Label: "Less than a twentieth is free"},
			{When: rules.MustCompile("usedPct >= 80 || inodesFreePct < 10"), Then: "at-risk", Label: "Filling up, in bytes or inodes"},
		}, decide.Default{Branch: "healthy", Label: "Plenty of room"}, []flow.Branch{
			{Name: "critical", Steps: verdict("critical")},
			{Name: "at-risk", Steps: verdict("at-risk")},
			{Name: "healthy", Steps: verdict("healthy")},
		}, flow.Name("Disk posture")).
		Build()
	if err != nil {
		return err
	}
	narrative := recorder.NewNarrative()
	res, err := chart.Run(context.Background(), flow.WithRecorders(narrative))
	for _, line := range narrative.Lines() {
		fmt.Println(line)
	}
	if err != nil {
		return err
	}
	fmt.Printf("\n%s is %v (%v%% used)\n", res.State()["mount"], res.State()["verdict"], res.State()["usedPct"])
	return nil
}

// Command volumes fans out over this machine's mounted filesystems, one
// generated branch per volume, classifies each with a labelled decider and
// prints the verdict rows gathered in item order.
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// verdicts is the key each branch appends its row to; the run gathers the
// rows of every branch, in item order (flow.WithGather).
const verdicts = "verdicts"

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "volumes:", err)
		os.Exit(1)
	}
}

// mounts lists real filesystems from /proc/self/mounts (pseudo ones such as
// proc and sysfs are skipped).
func mounts() ([]any, error) {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	skip := map[string]bool{"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "mqueue": true, "securityfs": true, "debugfs": true, "tracefs": true, "pstore": true, "bpf": true, "autofs": true, "configfs": true, "fusectl": true, "hugetlbfs": true, "binfmt_misc": true, "nsfs": true}
	var out []any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 3 || skip[fields[2]] {
			continue
		}
		out = append(out, map[string]any{"device": fields[0], "mount": fields[1], "fstype": fields[2]})
	}
	return out, sc.Err()
}

func run() error {
	row := func(verdict string) *flow.Builder {
		return flow.Seq().Stage("row-"+verdict, func(ctx context.Context, s *flow.Scope) error {
			rows, _ := s.Value(verdicts).([]any)
			row := map[string]any{"subject": s.Value("mount"), "verdict": verdict, "usedPct": s.Value("usedPct")}
			s.Set(verdicts, append(append([]any{}, rows...), row))
			return nil
		})
	}
	body := flow.Seq().
		Stage("measure", func(ctx context.Context, s *flow.Scope) error {
			v := s.Value("volume").(map[string]any)
			s.Set("mount", v["mount"])
			var st syscall.Statfs_t
			if err := syscall.Statfs(v["mount"].(string), &st); err != nil || st.Blocks == 0 {
				s.Set("measured", false)
				return nil
			}
			s.Set("measured", true)
			s.Set("usedPct", 100-int(100*st.Bavail/st.Blocks))
			s.Set("readOnly", st.Flags&1 != 0) // ST_RDONLY
			return nil
		}, flow.Name("Measure")).
		Decide("posture", []decide.Rule{
			{When: rules.MustFilter(rules.Where("measured", rules.OpEq, false)), Then: "declined", Label: "The filesystem could not be measured"},
			{When: rules.MustFilter(rules.Where("readOnly", rules.OpEq, true)), Then: "read-only", Label: "Mounted read-only"},
			{When: rules.MustFilter(rules.Where("usedPct", rules.OpGte, 90)), Then: "at-risk", Label: "Less than a tenth is free"},
		}, decide.Default{Branch: "healthy", Label: "Room to spare"}, []flow.Branch{
			{Name: "declined", Steps: row("declined")},
			{Name: "read-only", Steps: row("read-only")},
			{Name: "at-risk", Steps: row("at-risk")},
			{Name: "healthy", Steps: row("healthy")},
		}, flow.Name("Volume posture"))
	chart, err := flow.New("volumes").
		Stage("list", func(ctx context.Context, s *flow.Scope) error {
			ms, err := mounts()
			s.Set("volumes", ms)
			return err
		}, flow.Name("List mounts")).
		ForEach("per-volume", flow.ForEach{
			Items:       flow.ItemsOf(rules.Key("volumes")),
			As:          "volume",
			MaxBranches: 200,
			Body:        body,
		}).
		Build()
	if err != nil {
		return err
	}
	res, err := chart.Run(context.Background(), flow.WithGather(verdicts))
	if err != nil {
		return err
	}
	fmt.Println("| subject | verdict | usedPct |")
	fmt.Println("|---|---|---|")
	for _, r := range res.State()[verdicts].([]any) {
		m := r.(map[string]any)
		used := "—"
		if u, ok := m["usedPct"]; ok && u != nil {
			used = fmt.Sprint(u)
		}
		fmt.Printf("| %v | %v | %s |\n", m["subject"], m["verdict"], used)
	}
	fmt.Printf("\n%d commits; every row above can be traced to its branch (per-volume~N) in res.Log.\n", len(res.Log.Commits()))
	return nil
}

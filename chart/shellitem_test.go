package chart

import (
	"slices"
	"testing"
)

// TestShellReadingAForeachItemIsNoted: a foreach's item is a chart name in
// its body as an input is, and a shell: script is no template there
// either: `shell: 'exec 3<>/dev/tcp/${host}/${port}'` under `as: host`
// connected to /dev/tcp// and a port that was open stood "refused",
// Consistent (Nagios CRITICAL), with a warning for $port alone. The item
// (and index) of every foreach around the stage is noted now, as an input
// is; outside the foreach, and set by envFrom or by the script itself, it
// is not.
func TestShellReadingAForeachItemIsNoted(t *testing.T) {
	t.Parallel()
	src := `version: 1
runbook: t
inputs:
  hosts: {type: list, required: true}
  port: {type: number, default: 80}
stages:
  - id: per
    foreach:
      items: hosts
      as: host
      maxBranches: 10
      stages:
        - id: inner
          foreach:
            items: '[1, 2]'
            maxBranches: 2
            stages:
              - {id: deep, exec: {shell: 'echo $host $item $index'}}
        - {id: c, exec: {shell: 'exec 3<>/dev/tcp/${host}/${port}'}}
        - {id: given, exec: {shell: 'exec 3<>/dev/tcp/$host/$PORT', envFrom: {host: host, PORT: string(port)}}}
        - {id: own, exec: {shell: 'for host in a b; do echo $host; done'}}
  - {id: after, exec: {shell: 'echo $host $index'}}
`
	spec, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"c": {"host", "port"}, "deep": {"host", "item", "index"}, "given": nil, "own": nil, "after": nil}
	walkStages(spec.Stages, func(st *StageSpec) bool {
		if st.Exec == nil {
			return true
		}
		if w, ok := want[st.ID]; !ok || !slices.Equal(st.Exec.ShellChartNames, w) {
			t.Errorf("stage %s: noted %v, want %v", st.ID, st.Exec.ShellChartNames, w)
		}
		return true
	})
}

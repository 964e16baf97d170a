package chart

import "testing"

// TestRunsJQ: a command or a shell: line that runs jq, and none that
// only names it.
func TestRunsJQ(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"jq", "-r", ".a"}, want: true},
		{cmd: []string{"/usr/bin/jq", "-e", ".a"}, want: true},
		{shell: `ip -j addr | jq -r '.[] | .ifname'`, want: true},
		{shell: `lsblk -J|jq .blockdevices`, want: true},
		{shell: `jq -r .x < f.json`, want: true},
		{shell: `ip -j addr | /usr/bin/jq -c .`, want: true},
		{shell: `ip -j addr`},
		{shell: `cat jq.conf`},
		{shell: `gojq -r .x f`},
		{cmd: []string{"jqlint", "f"}},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).RunsJQ(); got != tc.want {
			t.Errorf("%v %q: RunsJQ %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}

// TestJQFormatsFields: a jq filter that writes its rows with @tsv or @csv.
func TestJQFormatsFields(t *testing.T) {
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{shell: `ip -j addr | jq -r '.[] | [.ifname, .operstate] | @tsv'`, want: true},
		{cmd: []string{"jq", "-r", ".[] | [.a] | @csv", "f.json"}, want: true},
		{shell: `ip -j addr | jq -r '.[] | .ifname'`},
		{shell: `echo '@tsv'`},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).JQFormatsFields(); got != tc.want {
			t.Errorf("%v %q: %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
}

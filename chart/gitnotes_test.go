package chart

import "testing"

// TestGitStatusUntrackedIsNoted: `git -C /etc status --porcelain` reads
// the repository's own status.showUntrackedFiles, and a repository that
// sets it to no lists no new file: a drift check of /etc under etckeeper
// said only the edited a.conf, and a cron job dropped in /etc/cron.d was
// no row (testdata/wave-drift/etc-git). runbook plan notes git status
// without --untracked-files (-u), in a command or a shell: line, and a run
// warns of it once; -uall, -unormal and an explicit -uno are the chart's
// own word.
func TestGitStatusUntrackedIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"git", "-C", "/etc", "status", "--porcelain"}, want: true},
		{cmd: []string{"/usr/bin/git", "status", "-s"}, want: true},
		{shell: `git -C "$D" status --porcelain | grep -v '^ M etc/mtab'`, want: true},
		{shell: "cd /etc && git status --porcelain=v1", want: true},
		{cmd: []string{"git", "-C", "/etc", "status", "--porcelain", "--untracked-files=all"}, want: false},
		{cmd: []string{"git", "status", "--porcelain", "-uall"}, want: false},
		{cmd: []string{"git", "status", "-uno", "--porcelain"}, want: false},
		{shell: `git -C /etc status --porcelain -unormal`, want: false},
		{cmd: []string{"git", "-C", "/srv/status", "log", "-1"}, want: false},
		{shell: `git log -1 --format=%H; echo status`, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).GitStatusUntracked() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	e := &ExecSpec{Command: []string{"git", "-C", "/etc", "status", "--porcelain"}}
	if w := e.RunWarnings(); len(w) != 1 || w[0] != e.GitStatusUntracked() {
		t.Errorf("run warnings %q; want the git status note alone", w)
	}
}

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

// TestGitConfigWithoutAScopeIsNoted: outside a repository, and in one
// git refuses as another user's (dubious ownership), `git config --get`
// reads the global and system files alone, says nothing and exits 1 as
// for a key set nowhere: `git -C /srv/app config --get core.hooksPath`
// with `exitCodes: {0: set, 1: unset}` said unset, Consistent, of a
// checkout owned by another user (testdata/wave-git/hooks-path).
// runbook plan notes a read of a key that names no file, and a run warns
// of it once; --local (which fails, 128, outside a repository), --file
// and the other scopes are the chart's own word, and a write is no read.
func TestGitConfigWithoutAScopeIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd   []string
		shell string
		want  bool
	}{
		{cmd: []string{"git", "-C", "/srv/app", "config", "--get", "core.hooksPath"}, want: true},
		{cmd: []string{"git", "-C", "/srv/app", "config", "core.hooksPath"}, want: true},
		{cmd: []string{"/usr/bin/git", "config", "--get-regexp", "^remote\\."}, want: true},
		{cmd: []string{"git", "config", "get", "remote.origin.url"}, want: true},
		{shell: `git -C "$R" config --get remote.origin.url || echo none`, want: true},
		{cmd: []string{"git", "-C", "/srv/app", "config", "--local", "--get", "core.hooksPath"}, want: false},
		{cmd: []string{"git", "config", "--file", "/srv/app/.gitmodules", "--get-regexp", "path"}, want: false},
		{cmd: []string{"git", "config", "-f", ".gitmodules", "--list"}, want: false},
		{cmd: []string{"git", "config", "--global", "user.email"}, want: false},
		{cmd: []string{"git", "config", "core.hooksPath", ".githooks"}, want: false},
		{cmd: []string{"git", "config", "--unset", "core.hooksPath"}, want: false},
		{cmd: []string{"git", "-C", "/srv/config", "log", "-1"}, want: false},
		{shell: `git -C "$R" rev-parse --git-dir >/dev/null && git -C "$R" config --get core.hooksPath`, want: false},
	} {
		if got := (&ExecSpec{Command: tc.cmd, Shell: tc.shell}).GitConfigUnscoped() != ""; got != tc.want {
			t.Errorf("%q %q: noted %v, want %v", tc.cmd, tc.shell, got, tc.want)
		}
	}
	e := &ExecSpec{Command: []string{"git", "-C", "/srv/app", "config", "--get", "core.hooksPath"}}
	if w := e.RunWarnings(); len(w) != 1 || w[0] != e.GitConfigUnscoped() {
		t.Errorf("run warnings %q; want the git config note alone", w)
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandOutputComparedWithoutItsNewlineIsNotOK: a check that its
// own uid is 0 compared `id -u`'s output, read as text, with "0": the
// text is "0\n", the rule said no, and a check run as root said OK,
// "not root", exit 0. The comparison is a rule error now: UNKNOWN.
func TestCommandOutputComparedWithoutItsNewlineIsNotOK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: whoami
result: {kind: verdict/whoami, decider: Root, nagios: {critical: [root], ok: [user]}}
stages:
  - id: id
    exec: {shell: "echo 0"}
  - id: root
    name: Root
    decide:
      rules:
        - {when: 'id.stdout == "0"', then: root, label: Runs as root}
      default: {branch: user, label: Not root}
    branches:
      root: [{id: r, verdict: {subject: '"me"', verdict: '"root"'}}]
      user: [{id: u, verdict: {subject: '"me"', verdict: '"user"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "whoami UNKNOWN") || !strings.Contains(r.stdout, `"0\n" and "0" differ only by the line end`) {
		t.Errorf("exit %d; want 3, UNKNOWN saying the line end:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProcessListShiftedByACommWithASpaceIsNotOK: ps --no-headers read
// with names and last: rest split a root bash renamed "tmux: server" as
// comm "tmux:" and args "server    bash …", so a check for root shells
// said OK over it. The row is a parse problem now: UNKNOWN.
func TestProcessListShiftedByACommWithASpaceIsNotOK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ps := "    1 root     init            /sbin/init\n" +
		"   40 root     kthreadd        [kthreadd]\n" +
		"  212 root     tmux: server    bash -i\n"
	if err := os.WriteFile(filepath.Join(dir, "ps.txt"), []byte(ps), 0o600); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "c.yaml", perRowChart("shells", "Shell",
		` {command: [cat, ps.txt], dir: `+dir+`, parse: {as: columns, header: false, names: [pid, user, comm, args], last: rest}}`, "p", `
              - {when: 'p.user == "root" && split(p.args, " ")[0] in ["bash", "sh"]', then: bad, label: A root shell}`, `p.comm`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "shells UNKNOWN") || !strings.Contains(r.stdout, `its last column holds "server    bash -i", which begins left of where the other rows' "args" begins`) {
		t.Errorf("exit %d; want 3, UNKNOWN over the shifted row:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestProcNetTCPReadByItsHeaderIsNotOK: /proc/net/tcp's header names 12
// columns over 17 values; read with last: rest, "uid" keyed the inode,
// and a check for sockets root owns said OK over two root owned. Each
// row is a parse problem now: UNKNOWN.
func TestProcNetTCPReadByItsHeaderIsNotOK(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tcp := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 0100007F:46A0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 26902727 1 000000002fb9fb84 100 0 0 10 0\n" +
		"   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1268 1 0000000046fbc9d6 100 0 0 10 0\n"
	if err := os.WriteFile(filepath.Join(dir, "tcp"), []byte(tcp), 0o600); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "c.yaml", perRowChart("sockets", "Owner",
		` {command: [cat, tcp], dir: `+dir+`, parse: {as: columns, last: rest}}`, "s", `
              - {when: {s.uid: {eq: 0}}, then: bad, label: Owned by root}`, `s.local_address`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "sockets UNKNOWN") || !strings.Contains(r.stdout, `right of the header's "inode", under which the row holds "26902727"`) {
		t.Errorf("exit %d; want 3, UNKNOWN over the misread rows:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

package main

import (
	"strings"
	"testing"
)

// TestUtilLinuxTreeIsNoList: findmnt -J (without -l) prints each
// filesystem mounted below another inside that one's "children", so
// .filesystems holds / alone. A chart judging every mount's options by a
// foreach over it said `mounts OK - 1 writable`, Consistent, over a /data
// mounted read-only (on this sandbox, a read-only mount below / that the
// flat list shows). lsblk -J holds each partition inside its disk's
// children the same way. Such a tree is a not-checked item now (kind
// tree): Not sure, UNKNOWN; the flat list (-l) is not flagged
// (testdata/wave-jq/mounts).
func TestUtilLinuxTreeIsNoList(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct{ name, out, items, said string }{
		{"findmnt tree", `{"filesystems": [{"target": "/", "options": "rw,relatime", "children": [{"target": "/data", "options": "ro,relatime"}, {"target": "/boot", "options": "rw", "children": [{"target": "/boot/efi", "options": "rw"}]}]}]}`, "fm.stdout.filesystems",
			`stage "fm" did not check its output (it is a tree, not a list: "filesystems" holds 1 item at the top and 3 more inside their "children", which a reading of ".filesystems" passes over, so an item it did not reach is not known to be fine; findmnt: give it -l (--list), which prints one object per item)`},
		{"lsblk tree", `{"blockdevices": [{"name": "sda", "ro": false, "children": [{"name": "sda1", "ro": true}]}]}`, "fm.stdout.blockdevices",
			`"blockdevices" holds 1 item at the top and 1 more inside their "children"`},
		{"findmnt list", `{"filesystems": [{"target": "/", "options": "rw,relatime"}, {"target": "/data", "options": "ro,relatime"}]}`, "fm.stdout.filesystems", ``},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: mounts
result: {kind: verdict/mount, decider: RW, nagios: {critical: [read-only], ok: [writable]}}
stages:
  - id: fm
    exec:
      parse: json
      shell: |
        printf '%s\n' '`+tc.out+`'
  - id: per
    foreach:
      items: `+tc.items+`
      as: f
      maxBranches: 64
      stages:
        - id: rw
          name: RW
          decide:
            rules:
              - {when: '(f.options ?? "") startsWith "ro," || f?.ro == true', then: read-only, label: read-only}
            default: {branch: writable, label: writable}
          branches:
            read-only: [{id: a, verdict: {subject: 'f.target ?? f.name', verdict: '"read-only"'}}]
            writable: [{id: b, verdict: {subject: 'f.target ?? f.name', verdict: '"writable"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.said == "" {
			if r.code != 2 || strings.Contains(r.stdout, "did not check") {
				t.Errorf("%s: exit %d; want 2 (the read-only mount), nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "mounts UNKNOWN") || !strings.Contains(r.stdout, tc.said) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, tc.said, r.stdout, r.stderr)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLsblkWithoutTypesIsNoAnswer: lsblk takes FSTYPE from udev's
// database, and where udev does not run (this container, a chroot) it
// prints null for every device, exit 0, nothing on stderr. A chart that
// checks every unmounted ext filesystem, filtering lsblk -J's devices by
// .fstype, under result.empty: answer, said `OK - no verdict rows`,
// Consistent, beside an unmounted ext4 that e2fsck -fn finds errors in
// (record.ItemLsblkUntyped, testdata/wave-fsck/unmounted). A device
// listed as mounted with no type says lsblk read no types; a listing
// whose mounted devices have theirs stands.
func TestLsblkWithoutTypesIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, json string
		status     string
		code       int
	}{
		{"no udev", `{"blockdevices": [{"path": "/dev/vda", "fstype": null, "mountpoint": "/"}, {"path": "/dev/loop4", "fstype": null, "mountpoint": null}]}`,
			"ext UNKNOWN - 1 stage did not check everything (disks), no verdict rows", 3},
		{"no udev, mountpoints", `{"blockdevices": [{"path": "/dev/vda", "fstype": null, "mountpoints": ["/", "/run/netns"]}, {"path": "/dev/loop4", "fstype": null, "mountpoints": [null]}]}`,
			"ext UNKNOWN - 1 stage did not check everything (disks), no verdict rows", 3},
		{"no udev, a tree", `{"blockdevices": [{"path": "/dev/sda", "fstype": null, "mountpoint": null, "children": [{"path": "/dev/sda1", "fstype": null, "mountpoint": "/boot"}]}]}`,
			"ext UNKNOWN - 1 stage did not check everything (disks), no verdict rows", 3},
		{"types read, none unmounted", `{"blockdevices": [{"path": "/dev/vda", "fstype": "ext4", "mountpoint": "/"}, {"path": "/dev/vdb", "fstype": null, "mountpoint": null}]}`,
			"ext OK - no verdict rows", 0},
	} {
		name := strings.NewReplacer(" ", "-", ",", "").Replace(tc.name)
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name, "out.json")
		tool := filepath.Join(dir, name, "lsblk")
		for f, text := range map[string]string{out: tc.json, tool: "#!/bin/sh\ncat '" + out + "'\n"} {
			if err := os.WriteFile(f, []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: ext
result: {kind: verdict/fsck, decider: Fsck, nagios: {ok: [clean], critical: [errors]}, empty: answer}
stages:
  - id: disks
    exec: {command: ['`+tool+`', -J, -l, -o, 'PATH,FSTYPE,MOUNTPOINT'], parse: json}
  - id: per
    foreach:
      items: 'filter(disks.stdout.blockdevices, .fstype in ["ext2", "ext3", "ext4"] && .mountpoint == nil)'
      as: d
      maxBranches: 64
      stages:
        - id: check
          exec: {command: [e2fsck, -fn, '${d.path}'], exitCodes: {0: clean, 4: errors}}
        - id: fsck
          name: Fsck
          decide:
            rules:
              - {when: check.status == "errors", then: errors, label: errors}
            default: {branch: clean, label: clean}
          branches:
            errors: [{id: e, verdict: {subject: d.path, verdict: '"errors"'}}]
            clean: [{id: c, verdict: {subject: d.path, verdict: '"clean"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.code == 3 && !strings.Contains(r.stdout, "lsblk did not read the types") {
			t.Errorf("%s: does not say why:\n%s", tc.name, r.stdout)
		}
	}
}

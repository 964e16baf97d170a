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
			if err := writeExec(f, []byte(text), 0o755); err != nil {
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

// TestBlkidSilenceIsNoAnswer: blkid over a device it could not open (run
// as a user over a device its cache does not hold, or in a container
// whose device cgroup refuses it) prints nothing and exits 0, where it
// exits 2 over one holding nothing it knows: `blkid -s TYPE -o value
// /dev/loop5` as nobody over an ext4 read as unformatted, Consistent
// (record.ItemBlkidBlank, testdata/wave-fsck/fstype). Its 2, blank too,
// stays its answer, and -p says its own errors.
func TestBlkidSilenceIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout string
		exit         int
		args         string
		status       string
		code         int
	}{
		{"a device it could not open", "", 0, "-s TYPE -o value /dev/loop5", "fs WARNING - 1 stage did not check everything (fs), 1 unformatted (/dev/loop5)", 1},
		{"an ext4", "ext4\n", 0, "-s TYPE -o value /dev/loop5", "fs OK - 1 ext4", 0},
		{"nothing there", "", 2, "-s TYPE -o value /dev/loop5", "fs WARNING - 1 unformatted", 1},
		{"a label asked of none", "", 0, "-s LABEL -o value /dev/loop5", "fs WARNING - 1 unformatted", 1},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(dir, name, "blkid")
		if err := writeExec(tool, []byte("#!/bin/sh\nprintf '"+strings.ReplaceAll(tc.stdout, "\n", `\n`)+"'\nexit "+string(rune('0'+tc.exit))+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		args := `'` + strings.Join(strings.Fields(tc.args), `', '`) + `'`
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: fs
result: {kind: verdict/fstype, decider: Type, nagios: {ok: [ext4], warning: [unformatted]}}
stages:
  - id: fs
    exec: {command: ['`+tool+`', `+args+`], exitCodes: {0: typed, 2: none}, parse: text}
  - id: type
    name: Type
    decide:
      rules:
        - {when: 'trim(fs.stdout) == ""', then: unformatted, label: no type}
      default: {branch: typed, label: a type}
    branches:
      unformatted: [{id: u, verdict: {subject: '"/dev/loop5"', verdict: '"unformatted"'}}]
      typed: [{id: t, verdict: {subject: '"/dev/loop5"', verdict: trim(fs.stdout)}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if strings.Contains(tc.status, "did not check") && !strings.Contains(r.stdout, "it runs blkid over devices it names and printed nothing") {
			t.Errorf("%s: does not say why:\n%s", tc.name, r.stdout)
		}
	}
}

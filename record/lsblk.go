package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemLsblkUntyped is the kind of the not-checked item filed for a parse:
// json whose value is lsblk -J's, with a device it lists as mounted and
// of no filesystem type: lsblk reads FSTYPE (and LABEL, UUID) from udev's
// database, and where udev does not run (a container, a chroot, a rescue
// system) it prints null for every device, exit 0, nothing on stderr. A
// mounted device holds a filesystem, so its null says lsblk did not read
// the types, and a device it lists with none is not known to hold none.
// A chart that checks every unmounted ext filesystem, `filter(
// disks.stdout.blockdevices, .fstype in ["ext2", "ext3", "ext4"] &&
// .mountpoint == nil)` under `result.empty: answer`, said `OK - no
// verdict rows`, Consistent, beside an unmounted ext4 e2fsck -fn finds
// errors in (cmd/runbook TestLsblkWithoutTypesIsNoAnswer,
// testdata/wave-fsck/unmounted).
const ItemLsblkUntyped = "lsblk-untyped"

// LsblkUntyped says whether v, a parsed JSON value, is lsblk -J's (an
// object whose one member is "blockdevices") holding a device, at any
// depth, with a mountpoint and a null "fstype": the first such device's
// path (or name) and where it is mounted, and how many there are. "" when
// v is no such value, or asks for no fstype or mountpoint.
func LsblkUntyped(v any) (dev, at string, n int) {
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		return "", "", 0
	}
	items, ok := obj["blockdevices"].([]any)
	if !ok {
		return "", "", 0
	}
	var walk func(items []any)
	walk = func(items []any) {
		for _, it := range items {
			o, ok := it.(map[string]any)
			if !ok {
				continue
			}
			if t, asked := o["fstype"]; asked && t == nil {
				if m := mountedAt(o); m != "" {
					if n == 0 {
						dev, at = deviceName(o), m
					}
					n++
				}
			}
			if kids, ok := o["children"].([]any); ok {
				walk(kids)
			}
		}
	}
	walk(items)
	return dev, at, n
}

// mountedAt is a device's first mountpoint, from lsblk's "mountpoint"
// (MOUNTPOINT) or "mountpoints" (MOUNTPOINTS, a list, [null] for none);
// "" when it shows none.
func mountedAt(o map[string]any) string {
	if m, ok := o["mountpoint"].(string); ok && m != "" {
		return m
	}
	if ms, ok := o["mountpoints"].([]any); ok {
		for _, m := range ms {
			if s, ok := m.(string); ok && s != "" {
				return s
			}
		}
	}
	return ""
}

// deviceName is a device's path, kname or name, as lsblk was asked to
// print it; "a device" when none was.
func deviceName(o map[string]any) string {
	for _, k := range []string{"path", "name", "kname"} {
		if s, ok := o[k].(string); ok && s != "" {
			return s
		}
	}
	return "a device"
}

// LsblkUntypedEntry is the ledger's entry for a stage whose parse: json
// made such a value: of names the text (its output, a file), dev, at and
// n as LsblkUntyped says.
func LsblkUntypedEntry(path, of, dev, at string, n int) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why: fmt.Sprintf("lsblk printed no filesystem type for %s it lists as mounted (%s at %s), and a mounted device holds a filesystem: lsblk did not read the types, which it takes from udev's database, not there where udev does not run (a container, a chroot), and prints null for every device then, exit 0, so a device it lists with no type is not known to hold none; ask blkid, which reads the devices itself (blkid -o export DEV, or blkid -p)",
				plural(n, "device"), dev, at),
			Kind: ItemLsblkUntyped,
		}},
	}}
}

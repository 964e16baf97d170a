package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemTree is the kind of the not-checked item filed for a parse: json
// whose value is a util-linux tree: findmnt -J (without -l) prints each
// filesystem mounted below another inside that one's "children", and
// lsblk -J (without -l or -d) each partition inside its disk's. The
// object's one list holds the roots alone: `findmnt -J -o
// TARGET,OPTIONS` is {"filesystems": [{"target": "/", …, "children":
// [/proc, /data, …]}]}, and a foreach over .filesystems judged / alone,
// ok, Consistent, over a /data mounted read-only; a foreach over lsblk's
// .blockdevices reads the disks and none of their partitions, where the
// mountpoints are (cmd/runbook TestUtilLinuxTreeIsNoList).
const ItemTree = "tree"

// treeLists are the members util-linux's JSON output holds its list
// under, each with the tool and the flag that prints it flat.
var treeLists = map[string]string{
	"filesystems":  "findmnt: give it -l (--list)",
	"blockdevices": "lsblk: give it -l (--list), or -d for the disks alone",
}

// UtilLinuxTree says whether v, a parsed JSON value, is util-linux's tree
// (an object whose one member is "filesystems" or "blockdevices", a list
// some item of which holds a non-empty "children" list): the member, the
// items at the top and the items below them. "" when v is no such tree.
func UtilLinuxTree(v any) (member string, top, nested int) {
	obj, ok := v.(map[string]any)
	if !ok || len(obj) != 1 {
		return "", 0, 0
	}
	for k, list := range obj {
		if _, known := treeLists[k]; !known {
			return "", 0, 0
		}
		items, ok := list.([]any)
		if !ok {
			return "", 0, 0
		}
		member, top = k, len(items)
		nested = below(items)
	}
	if nested == 0 {
		return "", 0, 0
	}
	return member, top, nested
}

// below counts the items inside the children lists of items, at any depth.
func below(items []any) int {
	n := 0
	for _, it := range items {
		o, ok := it.(map[string]any)
		if !ok {
			continue
		}
		if kids, ok := o["children"].([]any); ok {
			n += len(kids) + below(kids)
		}
	}
	return n
}

// TreeEntry is the ledger's entry for a stage whose parse: json made such
// a tree: of names the text (its output, a file), member, top and nested
// as UtilLinuxTree says.
func TreeEntry(path, of, member string, top, nested int) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why: fmt.Sprintf("it is a tree, not a list: %q holds %s at the top and %d more inside their \"children\", which a reading of %q passes over, so an item it did not reach is not known to be fine; %s, which prints one object per item",
				member, plural(top, "item"), nested, "."+member, treeLists[member]),
			Kind: ItemTree,
		}},
	}}
}

// plural is n and the noun, an s after it unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

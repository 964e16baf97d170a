package record

import "testing"

// TestUtilLinuxTreeCountsWhatIsBelow: findmnt's and lsblk's tree, at
// any depth; a flat list, another tool's object and an object of more
// members are no such tree.
func TestUtilLinuxTreeCountsWhatIsBelow(t *testing.T) {
	kid := func(kids ...any) map[string]any { return map[string]any{"children": kids} }
	for _, tc := range []struct {
		name        string
		v           any
		member      string
		top, nested int
	}{
		{"findmnt", map[string]any{"filesystems": []any{kid(kid(), kid(kid()))}}, "filesystems", 1, 3},
		{"lsblk", map[string]any{"blockdevices": []any{kid(kid(), kid()), map[string]any{"name": "sdb"}}}, "blockdevices", 2, 2},
		{"flat", map[string]any{"filesystems": []any{map[string]any{"target": "/"}}}, "", 0, 0},
		{"empty children", map[string]any{"blockdevices": []any{kid()}}, "", 0, 0},
		{"another tool", map[string]any{"items": []any{kid(kid())}}, "", 0, 0},
		{"more members", map[string]any{"filesystems": []any{kid(kid())}, "x": 1}, "", 0, 0},
		{"a list", []any{kid(kid())}, "", 0, 0},
	} {
		m, top, n := UtilLinuxTree(tc.v)
		if m != tc.member || top != tc.top || n != tc.nested {
			t.Errorf("%s: %q %d %d, want %q %d %d", tc.name, m, top, n, tc.member, tc.top, tc.nested)
		}
	}
}

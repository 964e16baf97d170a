package rules

import (
	"strings"
	"testing"
)

// TestTextsThatDifferOnlyInDashesAreNoEquality: a CIS baseline lists
// usb-storage; lsmod and /proc/modules name the loaded module
// usb_storage, and `m in map(mods.stdout, .module)` was a plain no, so
// the check said usb-storage was not loaded, OK, Consistent, over a host
// where it was. Two texts that differ only in - and _ are an error now,
// naming what to write; replace() of them is judged.
func TestTextsThatDifferOnlyInDashesAreNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"m": "usb-storage", "mods": []any{"uas", "usb_storage"}}
	const why = `differ only in - and _`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`m in mods`, why, false},
		{`m == "usb_storage"`, why, false},
		{`m != "usb_storage"`, why, false},
		{`any(mods, # == m)`, why, false},
		{`replace(m, "-", "_") in mods`, "", true},
		{`m == "usb-storage"`, "", true},
		{`m == "usb_audio"`, "", false},
		{`m in ["uas", "cramfs"]`, "", false},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
	out := MustCompile(`m == "usb_storage"`).Eval(env)
	if !strings.Contains(out.Err, `replace(x, "-", "_") == "usb_storage"`) {
		t.Errorf("want what to write: %q", out.Err)
	}
}

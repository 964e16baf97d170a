package rules

import (
	"strings"
	"testing"
)

// TestMaxOverNoItemsIsNoted: expr's max() and min() of an empty list
// give null, with nothing said. A check that a service keytab holds the
// KDC's key version took `max(map(filter(kt.stdout, # contains " " +
// s.principal + " ("), int(split(trim(#), " ")[0])))` of `klist -k`'s
// lines, and over a principal written without its realm (no line
// matched) wrote null, which `ktVno != kdcVno` read as a key version
// other than the KDC's: `stale`, CRITICAL, Consistent, of a keytab whose
// entries nobody compared (testdata/wave-krb/keytab-kvno). Such a call
// is noted now as a member its object lacks is: a rule that evaluated one
// is a rule error naming it, and a set: hears of it (ValueNoting's
// absent). `?? 0` and a guard say what none means and are not noted;
// max() of items, or of two or more values, is expr's own.
func TestMaxOverNoItemsIsNoted(t *testing.T) {
	t.Parallel()
	env := mapEnv{"xs": []any{2, 7, 3}, "empty": []any{}, "lines": []any{"a", "b"}}
	for _, tc := range []struct {
		src, noted string
		want       any
	}{
		{src: `max(xs)`, want: 7},
		{src: `min(xs)`, want: 2},
		{src: `max(1, 4)`, want: 4},
		{src: `max(concat([0], empty))`, want: 0},
		{src: `len(empty) > 0 ? max(empty) : 0`, want: 0},
		{src: `max(empty) ?? 0`, want: 0},
		{src: `max(empty)`, noted: `max(empty) went over no items (empty is empty), and max() of no items is null, which a comparison or a sum reads as a value; say what none means: max(empty) ?? 0, or len(empty) > 0 ? max(empty) : …`},
		{src: `min(map(filter(lines, # == "z"), len(#)))`, noted: `min(map(filter(lines, # == "z"), len(#))) went over no items`},
	} {
		e, err := Compile(tc.src)
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got, _, noted, err := e.ValueNoting(env)
		if err != nil || !Equal(got, tc.want) || !strings.Contains(noted, tc.noted) || (tc.noted == "") != (noted == "") {
			t.Errorf("%s: got %v, noted %q, err %v; want %v, noted %q", tc.src, got, noted, err, tc.want, tc.noted)
		}
	}
	// a rule that evaluated one is a rule error, never a plain "differs"
	out := MustCompile(`max(map(filter(lines, # == "z"), len(#))) != 2`).Eval(env)
	if out.Matched || !strings.Contains(out.Err, "went over no items") {
		t.Errorf("rule: matched %v, err %q; want a rule error naming max()", out.Matched, out.Err)
	}
	out = MustCompile(`(max(filter(xs, # > 100)) ?? 0) == 0`).Eval(env)
	if !out.Matched || out.Err != "" {
		t.Errorf("guarded rule: matched %v, err %q; want a match", out.Matched, out.Err)
	}
}

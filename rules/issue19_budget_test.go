package rules

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestIssue19EveryBuilderIsBounded: every builtin that can build more than
// a constant times its arguments is charged before it builds, so none can
// make gigabytes in one evaluation; each stops at once with the text
// budget. Each expression here used to build its result (or run out of
// memory); the modest form of each still works.
func TestIssue19EveryBuilderIsBounded(t *testing.T) {
	t.Parallel()
	env := mapEnv{"s": strings.Repeat("x", 1<<20), "l": make([]any, 100_000)}
	tests := []struct{ bomb, modest, want string }{
		{`repeat("x", 100000000)`, `repeat("ab", 3)`, `"ababab"`},
		{`repeat(s, 100)`, `len(repeat(s, 2))`, `2097152`},
		{`join(map(1..100, s), "")`, `join(["a", "b"], "-")`, `"a-b"`},
		{`join([s, s, s, s, s, s, s, s, s], ",")`, `join(["a"])`, `"a"`},
		{`replace(s, "x", "yyyyyyyyyy")`, `replace("aXa", "X", "bb")`, `"abba"`},
		{`len(concat(l, l, l, l, l, l))`, `concat([1], [2, 3])`, `[1,2,3]`},
		{`len(flatten(map(1..100, l)))`, `flatten([[1], [2, [3]]])`, `[1,2,3]`},
		{`len(toJSON(map(1..100, s)))`, `toJSON({"a": [1]})`, `"{\n  \"a\": [\n    1\n  ]\n}"`},
		{`len(string(map(1..100, s)))`, `string(12)`, `"12"`},
		{`reduce(1..20, #acc + #acc, s)`, `"a" + "b"`, `"ab"`},
	}
	for _, tc := range tests {
		t.Run(tc.bomb, func(t *testing.T) {
			t.Parallel()
			began := time.Now()
			_, _, err := MustCompile(tc.bomb).Value(env)
			if !errors.Is(err, ErrTextBudget) && (err == nil || !strings.Contains(err.Error(), ErrTextBudget.Error())) {
				t.Errorf("err = %v, want the text budget", err)
			}
			if d := time.Since(began); d > 2*time.Second {
				t.Errorf("stopped after %s", d)
			}
			v, _, err := MustCompile(tc.modest).Value(env)
			if err != nil || formatValue(v) != tc.want {
				t.Errorf("%s = %s, %v; want %s", tc.modest, formatValue(v), err, tc.want)
			}
		})
	}
}

// TestIssue19YieldedValueIsBounded: a value past DefaultMaxValue is not
// yielded — the loop that doubled a string with join([s, s], "") grew it
// until the machine ran out of memory, one modest evaluation at a time —
// and the error names the bound and what to do instead; WithMaxValue
// moves the bound.
func TestIssue19YieldedValueIsBounded(t *testing.T) {
	t.Parallel()
	s := "x"
	passes := 0
	for ; passes < 40; passes++ {
		v, _, err := MustCompile(`join([s, s], "")`).Value(mapEnv{"s": s})
		if err != nil {
			// Whichever bound speaks first (join is charged before it
			// builds, at the same 8 MiB), it names the bound and what to
			// do instead.
			if !strings.Contains(err.Error(), "8 MiB") || !strings.Contains(err.Error(), "keep less") {
				t.Fatalf("pass %d: err = %v", passes, err)
			}
			break
		}
		s = v.(string)
	}
	if passes != 23 { // 2^23 bytes is 8 MiB; the next doubling is refused
		t.Errorf("stopped after %d passes, want 23 (s is %d bytes)", passes, len(s))
	}
	// Shared parts count each time: 100 copies of 1 MiB is 100 MiB to write.
	if _, _, err := MustCompile(`map(1..100, s)`).Value(mapEnv{"s": strings.Repeat("x", 1<<20)}); !errors.Is(err, ErrValueTooLarge) {
		t.Errorf("100 references to 1 MiB: err = %v", err)
	}
	_, _, err := MustCompile(`s`, WithMaxValue(4096)).Value(mapEnv{"s": strings.Repeat("x", 5000)})
	if !errors.Is(err, ErrValueTooLarge) || !strings.Contains(err.Error(), "4096 bytes") {
		t.Errorf("WithMaxValue(4096): err = %v", err)
	}
}

package rules

import (
	"fmt"
	"testing"
)

// TestToPairsIsInKeyOrder: expr's toPairs, keys and values walked a Go map,
// whose order changes from run to run, so a chart grouping a journal's
// error lines per unit, toPairs(groupBy(j.stdout, #._SYSTEMD_UNIT)),
// wrote its verdict rows in another order on each run of one journal,
// and a chart test holding its rows in order passed or failed by chance.
// They are in the keys' order now, numbers by value, every time.
func TestToPairsIsInKeyOrder(t *testing.T) {
	t.Parallel()
	env := mapEnv{"units": []any{"nginx.service", "kernel", "app.service", "nginx.service", "zebra", "b"}}
	for _, tc := range []struct{ expr, want string }{
		{`map(toPairs(groupBy(units, #)), #[0])`, `[app.service b kernel nginx.service zebra]`},
		{`keys(groupBy(units, #))`, `[app.service b kernel nginx.service zebra]`},
		{`map(values(groupBy(units, #)), len(#))`, `[1 1 1 2 1]`},
		{`keys(groupBy([10, 9, 100], #))`, `[9 10 100]`},
		{`toPairs({b: 2, a: 1})`, `[[a 1] [b 2]]`},
	} {
		for i := range 20 {
			v, _, err := MustCompile(tc.expr).Value(env)
			if got := fmt.Sprint(v); err != nil || got != tc.want {
				t.Fatalf("%s (try %d) = %s, %v; want %s", tc.expr, i, got, err, tc.want)
			}
		}
	}
	if _, _, err := MustCompile(`toPairs(nil)`).Value(env); err == nil {
		t.Fatal("toPairs(nil): no error")
	}
	if v, _, err := MustCompile(`toPairs(groupBy(units, #))[0][1][0] == "app.service" && len(keys({a: 1})) == 1`).Value(env); err != nil || v != true {
		t.Fatalf("typed use: %v, %v", v, err)
	}
}

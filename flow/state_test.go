package flow

import (
	"fmt"
	"testing"
)

// A state keeps its keys in the order first written, finds each by a scan
// and then, past stateScan keys, through its index, and an overwrite keeps
// a key's place.
func TestStateKeepsFirstWrittenOrder(t *testing.T) {
	for _, n := range []int{0, 1, stateScan, stateScan + 1, 3 * stateScan} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			st := newState(n / 2)
			for i := range n {
				st.put(fmt.Sprintf("k%d", n-i), entry{v: i})
			}
			for i := range n {
				st.put(fmt.Sprintf("k%d", n-i), entry{v: 10 * i, writer: "w"})
			}
			if st.len() != n {
				t.Fatalf("len = %d, want %d", st.len(), n)
			}
			if (st.index != nil) != (n > stateScan) {
				t.Errorf("index built = %v with %d keys", st.index != nil, n)
			}
			for i, k := range st.keys() {
				if want := fmt.Sprintf("k%d", n-i); k != want {
					t.Fatalf("key %d = %s, want %s", i, k, want)
				}
				e, ok := st.get(k)
				if !ok || e.v != 10*i || e.writer != "w" {
					t.Errorf("get(%s) = %+v, %v", k, e, ok)
				}
			}
			if _, ok := st.get("absent"); ok {
				t.Error("an absent key was found")
			}
		})
	}
}

package temporal_test

import (
	"fmt"
	"strings"
)

// lineDiff names the first lines where want and got part, with a few
// lines of each around: enough to see which fact differs.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 8; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  local    %s\n  temporal %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

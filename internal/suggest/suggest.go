// Package suggest is the one home of "did you mean": the known word nearest
// to a misspelt one, for every message that names a key, an input, a stage
// or a flag that does not exist. It owns the closeness rule and nothing else.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Nearest is the known word closest to w: the same but for case, or within
// an edit distance of 2 (1 for words of 3 letters or fewer); "" when none.
func Nearest(w string, known []string) string {
	for _, k := range known {
		if strings.EqualFold(w, k) {
			return k
		}
	}
	limit := 2
	if utf8.RuneCountInString(w) <= 3 {
		limit = 1
	}
	best, bestD := "", limit+1
	for _, k := range known {
		if d := distance(w, k); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

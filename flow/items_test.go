package flow_test

import (
	"context"
	"errors"
	"testing"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/rules"
)

// TestItemsOfTypedLists: an expression giving a typed list (expr's 0..2 is
// []int, split's is []string) is a foreach's items like any list
// (regression: "items 0..99999 gave []int, not a list").
func TestItemsOfTypedLists(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]int{"0..2": 3, `split("a,b", ",")`: 2, "[1, 2]": 2} {
		items, err := flow.ItemsOf(rules.MustCompile(src))(context.Background(), nil)
		if err != nil || len(items) != want {
			t.Errorf("%s: %d items, err %v; want %d", src, len(items), err, want)
		}
	}
	// Null is not an empty list (issue 13): ItemsOf says so, and the
	// foreach records it.
	var null *flow.NullItems
	if _, err := flow.ItemsOf(rules.MustCompile("nil"))(context.Background(), nil); !errors.As(err, &null) || null.Items != "nil" {
		t.Errorf("nil items: err %v, want a *flow.NullItems naming the expression", err)
	}
	if _, err := flow.ItemsOf(rules.MustCompile(`"abc"`))(context.Background(), nil); err == nil {
		t.Error("a string was taken for a list")
	}
}

package flow_test

import (
	"context"
	"errors"
	"strings"
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

// TestItemsErrorNamesItsExpression: a foreach whose items expression could
// not be evaluated failed the run with expr's words alone, "cannot fetch
// result from <nil> (1:13)", whose column points into a text the message
// did not hold (logscan run from another folder).
func TestItemsErrorNamesItsExpression(t *testing.T) {
	t.Parallel()
	c, err := flow.New("each").Stage("seed", func(ctx context.Context, s *flow.Scope) error {
		s.Set("scan", map[string]any{"stdout": nil})
		return nil
	}).ForEach("per", flow.ForEach{Items: flow.ItemsOf(rules.MustCompile("scan.stdout.result ?? []")), As: "x", MaxBranches: 10,
		Body: flow.Seq().Stage("noop", func(ctx context.Context, s *flow.Scope) error { return nil })}).Build()
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `items scan.stdout.result ?? []: cannot read the member "result" of null: the value before it is null (a member its object lacks, or a key that holds null); where it may be absent, read on with ?.result and give a default with ?? (1:13)`) {
		t.Errorf("err = %v; want the items expression named beside expr's words", err)
	}
}

// TestItemsNotAListSaysWhatWouldGoOverIt: a foreach over an object (a
// manifest's {"db.sql.gz": 6, …}) failed with Go's type, "items files gave
// map[string]interface {}, not a list", saying neither what a chart calls
// it nor how to go over it. It now says an object, and how to go over its
// keys in order; a string says how to make it a list.
func TestItemsNotAListSaysWhatWouldGoOverIt(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		`{"db.sql.gz": 6}`: `items {"db.sql.gz": 6} gave an object, not a list: a foreach goes over a list; to go over the object's keys, in order, write items: sort(keys({"db.sql.gz": 6})), and read a key's value as ({"db.sql.gz": 6})[key]`,
		`"a\nb"`:           `gave a string, not a list: a foreach goes over a list; split the text`,
		`true`:             `items true gave a boolean, not a list`,
	} {
		_, err := flow.ItemsOf(rules.MustCompile(src))(context.Background(), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err %v\nwant %s", src, err, want)
		}
	}
}

// TestItemsStringSaysAParseThatFailedLeftIt: `mysql -N -B -e "SELECT
// JSON_ARRAYAGG(…)"` over no row prints NULL, which `parse: json` cannot
// read and leaves as the text it was; the foreach over it said to "have
// the stage parse it (parse: lines)" of a stage that parsed it already.
// It says now that a parse that could not read its output leaves the
// text, and where its problem is said.
func TestItemsStringSaysAParseThatFailedLeftIt(t *testing.T) {
	t.Parallel()
	_, err := flow.ItemsOf(rules.MustCompile(`"NULL"`))(context.Background(), nil)
	want := `or, where the stage parses it already, its parse could not read it and left the text as it was: its problem is in the standing line`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err %v\nwant %s", err, want)
	}
}

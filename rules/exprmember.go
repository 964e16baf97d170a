package rules

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
)

// A member a builtin's predicate reads from its item (`.tme` in
// filter(sar.stdout, .tme == "Average:")) that no item of the list has,
// while the items have one a typo away (time), is an error that names
// both: expr reads a member a map lacks as null, so the filter kept
// nothing, the chart said "no NICs" and its answer check stood Known over
// a table nobody read. A `when:` rule's fixed paths are judged by
// absentMember; a predicate's members are judged over the whole list,
// since one item lacking a member is how JSON says an optional field is
// unset (`.status.reason` of a pod that was not evicted), and a member
// with no near name in the items is not taken for a typo either, save
// over a table's rows (two or more items with the same members: csv's,
// columns'), where a member none has is no column of it. A read
// written to allow absence (`#?.x`, `.x ?? d`, `.x == nil`: the
// collector's guard, as for a when: rule's paths) is not judged, nor are
// the reserved af_ members.
//
// patchMember wraps the list of every builtin whose predicate reads such
// members into a call of itemsFunc, which hands the list on or says which
// member no item has.
const itemsFunc = "\x00items"

// itemsFuncs is the function patchMember calls, as Compile's expr option.
func itemsFuncs() []expr.Option {
	return []expr.Option{expr.Function(itemsFunc, func(p ...any) (any, error) {
		jsonList, _ := p[4].(bool)
		list, err := judgedItems(p[0], p[1], p[2], jsonList)
		if err != nil {
			return nil, err
		}
		return list, zeroAbsent(p[0], p[3], p[2])
	})}
}

// zeroAbsent is an error when an item of list lacks a member path its
// predicate compares with a zero value (builtinCall.zeros: the literal,
// then the path), nil otherwise; text is the call as written. JSON
// writers that leave a zero value out (protobuf's JSON mapping, as
// etcdctl -w json prints it; Go's omitempty, as Kubernetes writes a
// status) leave the member out exactly when it is the zero value asked
// about, and read as null it was never equal to it: etcdctl endpoint
// status -w json writes no "leader" for a member that knows none (a
// member cut off from its peers), and filter(status.stdout,
// .Status.leader == 0) kept nothing, OK, Consistent (TestPredicateZeroOverAnOmittedMemberIsAnError,
// testdata/wave-etcd/leader). A read written to allow absence
// ((.x ?? 0) == 0, .x == nil, #?.x) is not judged.
func zeroAbsent(list, zeros, text any) error {
	items, ok := list.([]any)
	paths, _ := zeros.([]any)
	if !ok {
		return nil
	}
	for _, z := range paths {
		path, _ := z.([]any)
		if len(path) < 2 {
			continue
		}
		lit, _ := path[0].(string)
		segs := make([]string, 0, len(path)-1)
		for _, p := range path[1:] {
			seg, _ := p.(string)
			segs = append(segs, seg)
		}
		missing, present := -1, false
		var where map[string]any
		var seg string
		for i, it := range items {
			obj, has, last := lookPath(it, segs)
			switch {
			case has:
				present = true
			case len(obj) > 0 && missing < 0:
				// an object with no member at all is no value left out
				// (regex's row of a line it did not match is {})
				missing, where, seg = i, obj, last
			}
		}
		// A top-level member no item has is judgedItems' (a typo, no
		// column of a table); an omitted value shows where others have
		// it, or lies inside an object the items hold (no table's row).
		if missing < 0 || (!present && len(segs) < 2) {
			continue
		}
		written := "." + strings.Join(segs, ".")
		near := ""
		if n := nearMember(seg, slices.Sorted(maps.Keys(where))); n != "" && !present {
			// a member other items have is no typo of one
			near = fmt.Sprintf("; or did you mean %q?", n)
		}
		return fmt.Errorf("%s: item %d of the list has no member %q (%s), which it compares with %s (its members there: %s): a JSON writer that leaves a zero value out (protobuf's JSON mapping, as etcdctl -w json prints; Go's omitempty, as Kubernetes writes a status) leaves the member out when it is %s, and read as null it is never equal to %s; say what its absence means: (%s ?? %s) == %s, or %s == nil%s",
			text, missing, seg, written, lit, strings.Join(membersOf(where), ", "), lit, lit, written, lit, lit, written, near)
	}
	return nil
}

// lookPath follows segs from item: has says the whole path is there;
// otherwise obj is the object that lacks the next member (last), nil
// when the path meets something that is no object (expr's own error, or
// a null read as before).
func lookPath(item any, segs []string) (obj map[string]any, has bool, last string) {
	cur := item
	for _, seg := range segs {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false, ""
		}
		v, found := m[seg]
		if !found {
			return m, false, seg
		}
		cur = v
	}
	return nil, true, ""
}

// membersOf is m's members in order, at most maxMembersNamed of them.
func membersOf(m map[string]any) []string {
	keys := slices.Sorted(maps.Keys(m))
	if len(keys) > maxMembersNamed {
		keys = append(keys[:maxMembersNamed:maxMembersNamed], fmt.Sprintf("and %d more", len(m)-maxMembersNamed))
	}
	return keys
}

// judgedItems is list, unless one of paths (each a member a predicate
// reads from its item, after the indexes that lead to it: itemRead)
// names a member no item has where the items have a near one
// (nearMember); text is the call as written. `#[1].admin_helth`
// is judged over the pairs' values as `.admin_helth` is over the items:
// a member misspelt past toPairs' index read as null in every row, and
// varnish's backends all read admin-healthy, Consistent
// (TestPredicateMemberPastAnIndexIsJudged). Where an item is no list,
// or an index is past its end, the path is expr's own to read.
func judgedItems(list, paths, text any, jsonList bool) (any, error) {
	items, ok := list.([]any)
	ps, _ := paths.([]any)
	if !ok || len(items) == 0 {
		return list, nil
	}
	for _, p := range ps {
		path, _ := p.([]any)
		if err := judgedPath(items, path, text, jsonList); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// judgedPath is judgedItems' judgement of one path over items.
func judgedPath(items, path []any, text any, jsonList bool) error {
	caseOnly := len(path) > 0 && path[0] == nil // a guarded read (itemRead)
	if caseOnly {
		path = path[1:]
	}
	if len(path) == 0 {
		return nil
	}
	objs, at := items, "" // the values the member is read from, and where: [1]
	for _, step := range path[:len(path)-1] {
		k, _ := step.(int)
		next := make([]any, 0, len(objs))
		for _, it := range objs {
			l, ok := it.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			next = append(next, l[k])
		}
		objs, at = next, fmt.Sprintf("%s[%d]", at, k)
	}
	name, _ := path[len(path)-1].(string)
	if caseOnly && !otherCaseInItems(objs, name) {
		return nil // the absence the guard allows, found without collecting every item's keys
	}
	near, keys, table := missedMember(objs, name)
	where, guard := "", "#?."+name+" or (."+name+" ?? a default)"
	if at != "" {
		where = " at " + at
		guard = "#" + at + "?." + name + " or (#" + at + "." + name + " ?? a default)"
	}
	switch {
	case caseOnly && near != "" && strings.EqualFold(near, name):
		// the guard allows absence, not another case (caseTypo)
		return fmt.Errorf("%s: no item of the list has a member %q%s; did you mean %q? (their members: %s)%s",
			text, name, where, near, strings.Join(keys, ", "), caseGuardWords)
	case caseOnly:
		return nil
	case near != "" && strings.EqualFold(near, name):
		// no escape for a misspelling (memberInOtherCase)
		return fmt.Errorf("%s: no item of the list has a member %q%s; did you mean %q? (their members: %s)",
			text, name, where, near, strings.Join(keys, ", "))
	case near != "":
		return fmt.Errorf("%s: no item of the list has a member %q%s; did you mean %q? (their members: %s); if it may be absent from every item, write %s",
			text, name, where, near, strings.Join(keys, ", "), guard)
	case table && at == "" && !jsonList:
		// a table's rows are the items themselves; a JSON member's
		// list is no table (memberList)
		return fmt.Errorf("%s: no item of the list has a member %q, and every item has the same members, as a table's rows have its columns (%s): %q is no column of it, and read as null it would judge every row alike; name a column the table has (another version of the tool may print other columns), or if it may be absent, write %s",
			text, name, strings.Join(keys, ", "), name, guard)
	}
	return nil
}

// missedMember is the member nearest to name that the items have, when
// every item is an object and none has name; "" otherwise. table says
// whether, none having name, the items are a table's rows: two or more,
// each with the same two or more members (csv's, tsv's and columns'
// rows have every column of the header). A JSON field left out where it
// is unset is missing from some items, or from items whose members
// differ; a member missing from every row of a table is no field of it
// (HAProxy's show stat has weight and uweight; show servers state's
// srv_uweight read over it was null in every row, and filter(stat.stdout,
// .srv_uweight == 0) found no server set to weight 0, Consistent).
// A table's cells are text or numbers (cell): items holding a list, an
// object, a boolean or a null are JSON's, as ip -j link's interfaces
// are, all with the same members and master written for a bridge's
// port alone (TestPredicateOverJSONObjectsIsNoTable).
func missedMember(items []any, name string) (near string, keys []string, table bool) {
	seen := map[string]bool{}
	table = len(items) >= 2
	first := -1
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return "", nil, false
		}
		if _, has := m[name]; has {
			return "", nil, false
		}
		if first < 0 {
			first = len(m)
		}
		if len(m) != first || first < 2 {
			table = false
		}
		for k, v := range m {
			seen[k] = true
			if !cell(v) {
				table = false
			}
		}
	}
	if len(seen) != first {
		table = false // same count, other members
	}
	keys = slices.Sorted(maps.Keys(seen))
	near = nearMember(name, keys)
	if len(keys) > maxMembersNamed {
		keys = append(keys[:maxMembersNamed:maxMembersNamed], fmt.Sprintf("and %d more", len(seen)-maxMembersNamed))
	}
	return near, keys, table
}

// otherCaseInItems says whether no item holds name and one holds it in
// another case (memberInOtherCase): what a guarded read of an item's
// member is judged for (judgedPath's caseOnly).
func otherCaseInItems(items []any, name string) bool {
	twin := false
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return false
		}
		if _, has := m[name]; has {
			return false
		}
		twin = twin || memberInOtherCase(name, maps.Keys(m))
	}
	return twin
}

// cell reports whether v is what a table parse makes of a cell: text
// or a number (parse's number), never a list, an object, a boolean or
// a null.
func cell(v any) bool {
	switch v.(type) {
	case string, float64, int, int64, json.Number:
		return true
	}
	return false
}

// patchMember rewrites the list argument of each builtin whose predicate
// reads members from its item into a call of itemsFunc naming them. The
// members are the collector's (builtinCall.items, by the builtin's
// position in the source): which reads allow absence is its judgement,
// as for a when: rule's paths.
type patchMember struct{ calls map[int]builtinCall }

func (p patchMember) Visit(node *ast.Node) {
	n, ok := (*node).(*ast.BuiltinNode)
	if !ok || len(n.Arguments) < 2 {
		return
	}
	call := p.calls[n.Location().From]
	paths := call.items
	if len(paths) == 0 && len(call.zeros) == 0 {
		return
	}
	list := make([]ast.Node, len(paths))
	for i, path := range paths {
		steps := make([]ast.Node, len(path))
		for j, step := range path {
			switch step := step.(type) {
			case int:
				steps[j] = &ast.IntegerNode{Value: step}
			case string:
				steps[j] = &ast.StringNode{Value: step}
			default: // a guarded read's mark (itemRead)
				steps[j] = &ast.NilNode{}
			}
		}
		list[i] = &ast.ArrayNode{Nodes: steps}
	}
	zeros := make([]ast.Node, len(call.zeros))
	for i, path := range call.zeros {
		segs := make([]ast.Node, len(path))
		for j, s := range path {
			segs[j] = &ast.StringNode{Value: s}
		}
		zeros[i] = &ast.ArrayNode{Nodes: segs}
	}
	n.Arguments[0] = &ast.CallNode{
		Callee:    &ast.IdentifierNode{Value: itemsFunc},
		Arguments: []ast.Node{n.Arguments[0], &ast.ArrayNode{Nodes: list}, &ast.StringNode{Value: textOf(p.calls, n)}, &ast.ArrayNode{Nodes: zeros}, &ast.BoolNode{Value: call.json}},
	}
}

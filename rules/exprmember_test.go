package rules

import (
	"strings"
	"testing"
)

// TestPredicateMemberNoItemHasIsAnError: filter(sar.stdout, .tme ==
// "Average:") read the member no row has as null, kept nothing, and the
// chart said "no NICs" under Known. A member a builtin's predicate reads
// from its item that no item has, while the items have one a typo away,
// is an error naming both; a member some items have, one with no near
// name, or one written #?.x or left of ?? reads as before.
func TestPredicateMemberNoItemHasIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"rows": []any{
			map[string]any{"time": "Average:", "IFACE": "eth0", "util": 1.5},
			map[string]any{"time": "12:00:01", "IFACE": "lo", "util": 0},
		},
		"pods": []any{
			map[string]any{"name": "a", "status": map[string]any{"phase": "Running"}},
			map[string]any{"name": "b", "status": map[string]any{"phase": "Failed", "reason": "Evicted"}, "evicted": true},
		},
		"none": []any{},
	}
	tests := []valueCase{
		{`filter(rows, .tme == "Average:")`, `no item of the list has a member "tme"; did you mean "time"?`, true},
		{`map(rows, #.utl)`, `no item of the list has a member "utl"; did you mean "util"?`, true},
		{`count(rows, .IFAC == "lo")`, `did you mean "IFACE"?`, true},
		{`map(filter(rows, .time == "Average:"), .IFACE)`, "[eth0]", false},
		{`map(rows, map([1], .x))`, "", true}, // the inner list's items are no objects: expr's own error
		// a member some item has: an optional field
		{`map(filter(pods, .evicted ?? false), .name)`, "[b]", false},
		{`count(pods, .evicted == true)`, "1", false},
		// nested members and guards are not judged
		{`map(filter(pods, .status.reason == "Evicted"), .name)`, "[b]", false},
		{`count(rows, #?.tme == "x")`, "0", false},
		{`count(rows, (.tme ?? "") == "x")`, "0", false},
		{`count(rows, .tme == nil)`, "2", false},
		{`rows | filter(.tme == "x")`, `did you mean "time"?`, true},
		{`map(rows, map(rows, .utl))`, `did you mean "util"?`, true},
		// no near name: not taken for a typo
		{`count(rows, .zzzzzz == nil)`, "2", false},
		{`count(pods, .zzzzzz == "x")`, "0", false},
		{`filter(none, .tme == "x")`, "[]", false},
		{`sortBy(rows, .utl)`, `sortBy(rows, .utl): no item of the list has a member "utl"; did you mean "util"?`, true},
		{`filter(filter(rows, .time == "Average:"), .utl > 1)`, `filter(filter(rows, .time == "Average:"), .utl > 1): no item`, true},
	}
	runValues(t, env, tests)
}

// TestPredicateColumnNoRowHasIsAnError: HAProxy's show stat, read by
// csv, has the columns weight and uweight; a chart asking for the
// servers set to weight 0 wrote show servers state's srv_uweight, which
// no row has and no column is near, so it read as null in every row,
// filter(stat.stdout, .srv_uweight == 0) kept nothing and the chart said
// none, Consistent. Over a table's rows (two or more items with the same
// members) a member none has is an error naming the columns; over items
// whose members differ (a JSON field left out where unset), a single
// item, or a read written to allow absence, it reads as before.
func TestPredicateColumnNoRowHasIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"stat": []any{
			map[string]any{"# pxname": "app", "svname": "app1", "status": "UP", "weight": 1, "uweight": 1},
			map[string]any{"# pxname": "app", "svname": "app2", "status": "UP", "weight": 0, "uweight": 0},
		},
		"one": []any{
			map[string]any{"svname": "app1", "status": "UP"},
		},
		"alerts": []any{
			map[string]any{"name": "a", "state": "firing"},
			map[string]any{"name": "b", "state": "firing", "silenced": true},
		},
	}
	tests := []valueCase{
		{`filter(stat, .srv_uweight == 0)`, `no item of the list has a member "srv_uweight", and every item has the same members, as a table's rows have its columns (# pxname, status, svname, uweight, weight)`, true},
		{`count(stat, .srv_uweight != 1)`, `"srv_uweight" is no column of it`, true},
		{`map(filter(stat, .uweight == 0), .svname)`, "[app2]", false},
		{`count(stat, #?.srv_uweight == 0)`, "0", false},
		{`count(stat, (.srv_uweight ?? 1) == 0)`, "0", false},
		{`count(stat, .srv_uweight == nil)`, "2", false},
		{`count(one, .srv_uweight == 0)`, "0", false},
		{`count(alerts, .silenced == true)`, "1", false},
	}
	runValues(t, env, tests)
}

// TestPredicateZeroOverAnOmittedMemberIsAnError: etcdctl endpoint status
// -w json (protobuf's JSON mapping) leaves "leader" out of a member that
// knows no leader, as it leaves out every zero value, and
// filter(status.stdout, .Status.leader == 0) read the absence as null,
// never 0: it kept nothing, and a cluster with a member cut off from its
// peers said no member without a leader, OK, Consistent (etcd 3.4.23,
// testdata/wave-etcd/leader). A member path an item lacks, compared by ==
// or != with a zero value written as a literal, is an error saying what
// the writer left out; a read written to allow absence, and a path every
// item has, read as before.
func TestPredicateZeroOverAnOmittedMemberIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"status": []any{
			map[string]any{"Endpoint": "a", "Status": map[string]any{"leader": 7, "raftTerm": 3}},
			map[string]any{"Endpoint": "c", "Status": map[string]any{"raftTerm": 3, "errors": []any{"etcdserver: no leader"}}},
		},
		"pods": []any{
			map[string]any{"name": "a", "ready": true},
			map[string]any{"name": "b", "reason": "Evicted"},
		},
	}
	tests := []valueCase{
		{`filter(status, .Status.leader == 0)`, `item 1 of the list has no member "leader" (.Status.leader), which it compares with 0 (its members there: errors, raftTerm)`, true},
		{`count(status, 0 != .Status.leader)`, `leaves the member out when it is 0`, true},
		{`count(status, .Status.leadr == 0)`, `or did you mean "leader"?`, true},
		{`count(pods, .reason == "")`, `item 0 of the list has no member "reason" (.reason), which it compares with ""`, true},
		{`count(pods, .ready == false)`, `say what its absence means: (.ready ?? false) == false, or .ready == nil`, true},
		// absence allowed for, or a value no writer leaves out
		{`count(status, (.Status.leader ?? 0) == 0)`, "1", false},
		{`count(status, .Status.leader == nil)`, "1", false},
		{`count(status, #?.Status?.leader == 0)`, "0", false},
		{`count(status, .Status.raftTerm == 0)`, "0", false},
		{`count(status, .Status.leader == 7)`, "1", false},
		{`count(pods, .ready == true)`, "1", false},
	}
	runValues(t, env, tests)
}

// TestMemberBehindAFalseGuardIsNotJudged: a member path is judged where
// the evaluation reads it. `m.zk_server_state == "leader" &&
// m.zk_synced_followers < 2` over a ZooKeeper follower, whose mntr has no
// zk_synced_followers (a leader's metric), never reads the right side,
// and was a rule error all the same: every follower's row `ok (not
// judged)`, Not sure (testdata/wave-zk/guard). A read the evaluation
// reaches is judged as before, a typo named.
func TestMemberBehindAFalseGuardIsNotJudged(t *testing.T) {
	t.Parallel()
	follower := mapEnv{"m": map[string]any{"zk_server_state": "follower", "zk_quorum_size": 3}}
	leader := mapEnv{"m": map[string]any{"zk_server_state": "leader", "zk_quorum_size": 3}}
	for _, tc := range []struct {
		name, src string
		env       mapEnv
		matched   bool
		err       string
	}{
		{"&& false before it", `m.zk_server_state == "leader" && m.zk_synced_followers < m.zk_quorum_size - 1`, follower, false, ""},
		{"&& true before it", `m.zk_server_state == "leader" && m.zk_synced_followers < m.zk_quorum_size - 1`, leader, false, `has no member "zk_synced_followers"`},
		{"|| true before it", `m.zk_server_state != "leader" || m.zk_synced_followers >= 2`, follower, true, ""},
		{"a branch not taken", `m.zk_server_state == "leader" ? m.zk_synced_followers >= 2 : true`, follower, true, ""},
		{"a branch taken", `m.zk_server_state == "leader" ? m.zk_synced_followers >= 2 : true`, leader, false, `has no member "zk_synced_followers"`},
		{"a typo read", `m.zk_server_stat == "leader"`, follower, false, `did you mean "zk_server_state"?`},
		{"the same path read twice, once behind a false guard", `m.zk_server_state == "leader" && m.zk_learners > 0 || m.zk_learners == 0`, follower, false, `has no member "zk_learners"`},
		{"through $env, judged read or not", `m.zk_server_state == "leader" && $env.m.zk_learners > 0`, follower, false, `has no member "zk_learners"`},
	} {
		e, err := Compile(tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ev := e.Eval(tc.env)
		if tc.err == "" {
			if ev.Err != "" || ev.Matched != tc.matched {
				t.Errorf("%s: matched %v, err %v; want %v, no error", tc.name, ev.Matched, ev.Err, tc.matched)
			}
			continue
		}
		if !strings.Contains(ev.Err, tc.err) {
			t.Errorf("%s: matched %v, err %v; want an error saying %q", tc.name, ev.Matched, ev.Err, tc.err)
		}
	}
}

// TestPredicateMemberPastAnIndexIsJudged: varnish's backends, read by
// map(toPairs(list.stdout[3]), {…, admin: #[1].admin_helth}), a member
// misspelt past the pair's index, read as null in every row: no backend
// was forced sick and the check stood Consistent (found by misspelling
// one member at a time in the wave charts). A member read past an index
// is judged over the objects reached, as one read from the item is; one
// some of them have, one with no near name, one written to allow
// absence, and a member of a member read as before.
func TestPredicateMemberPastAnIndexIsJudged(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"backends": map[string]any{
			"boot.a": map[string]any{"admin_health": "sick", "type": "backend"},
			"boot.b": map[string]any{"admin_health": "probe", "type": "backend", "probe": "healthy"},
		},
		"pairs": []any{[]any{"a", 1}, []any{"b"}},
		"pods": []any{
			map[string]any{"name": "a", "status": map[string]any{"phase": "Running"}},
			map[string]any{"name": "b", "status": map[string]any{"phase": "Failed", "reason": "Evicted"}},
		},
	}
	tests := []valueCase{
		{`map(toPairs(backends), #[1].admin_helth)`, `no item of the list has a member "admin_helth" at [1]; did you mean "admin_health"?`, true},
		{`map(toPairs(backends), ({name: #[0], admin: #[1].admin_helth}))`, `did you mean "admin_health"?`, true},
		{`filter(toPairs(backends), #[1].admin_helth == "sick")`, `if it may be absent from every item, write #[1]?.admin_helth`, true},
		// as read from the item: some have it, none near, guarded
		{`map(toPairs(backends), #[1].probe ?? "")`, `[ healthy]`, false},
		{`count(toPairs(backends), #[1].probe == "healthy")`, `1`, false},
		{`count(toPairs(backends), #[1]?.admin_helth == "sick")`, `0`, false},
		// a member of a member is not judged (itemRead)
		{`count(pods, .status.phse == "Failed")`, `0`, false},
		// an index past an item's end is expr's own reading
		{`map(pairs, #[1])`, ``, true},
	}
	runValues(t, env, tests)
}

// TestGuardCoversNoIndexInside: `sh[a.usr] == nil`, a.user misspelt in the
// key of a nil test, read as null, found no shadow entry for any account,
// and the check stood Known (found by misspelling one member at a time in
// the wave charts): the test of nil, like ?? and ?., covered everything
// inside it. A guard covers the value it tests, not the index that finds
// it, nor the reads of a builtin's predicate whose result it tests.
func TestGuardCoversNoIndexInside(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"sh":   map[string]any{"alice": map[string]any{"kind": "hash"}},
		"a":    map[string]any{"user": "alice"},
		"rows": []any{map[string]any{"time": "Average:", "util": 1.5}, map[string]any{"time": "12:00", "util": 2}},
	}
	tests := []valueCase{
		{`sh[a.usr] == nil`, `a has no member "usr"; did you mean "user"?`, true},
		{`sh[a.usr] ?? "none"`, `did you mean "user"?`, true},
		{`sh?.[a.usr]`, `did you mean "user"?`, true},
		{`(filter(rows, .tme == "Average:")[0] ?? {}).util`, `no item of the list has a member "tme"; did you mean "time"?`, true},
		{`first(filter(rows, .tme == "Average:")) == nil`, `did you mean "time"?`, true},
		// the guarded value itself is as before
		{`sh[a.user] == nil`, `false`, false},
		{`sh["bob"] == nil`, `true`, false},
		{`(sh["bob"] ?? {}).kind ?? "none"`, `none`, false},
		{`first(filter(rows, .time == "x")) ?? "none"`, `none`, false},
	}
	runValues(t, env, tests)
}

// TestPredicateOverAJSONMembersListIsNoTable: ip -j addr writes an
// address's flags (dynamic, deprecated, tentative) only where they hold,
// and an interface given two static IPv6 addresses has two addr_info
// items with the same members; any(i.addr_info, .dynamic == true) was a
// rule error calling "dynamic" no column of a table, over iproute2's
// real output. A list read from a member of a value (i.addr_info,
// k.content.items) is a JSON value's, never a table's rows (csv, tsv,
// columns and regex make the top-level list): a member none of its items
// has reads as null there, as a JSON field left out does; a member a
// typo away from one they have is still an error, and a table's rows
// are judged as before.
func TestPredicateOverAJSONMembersListIsNoTable(t *testing.T) {
	t.Parallel()
	addr := func(local string) map[string]any {
		return map[string]any{"family": "inet6", "local": local, "prefixlen": 64, "scope": "global", "valid_life_time": 4294967295, "preferred_life_time": 4294967295}
	}
	env := mapEnv{
		"i":    map[string]any{"ifname": "ifb0", "addr_info": []any{addr("fd00::2"), addr("fd00::1")}},
		"stat": map[string]any{"stdout": []any{map[string]any{"svname": "app1", "weight": 1}, map[string]any{"svname": "app2", "weight": 0}}},
		"g":    []any{map[string]any{"path": "a.csv", "content": []any{map[string]any{"svname": "app1", "weight": 1}, map[string]any{"svname": "app2", "weight": 0}}}},
	}
	runValues(t, env, []valueCase{
		{`any(i.addr_info, .dynamic == true)`, "false", false},
		{`count(g[0].content, .srv_uweight == 0)`, `"srv_uweight" is no column of it`, true},
		{`len(filter(i.addr_info, .deprecated == true))`, "0", false},
		{`any(i.addr_info, .scpe == "global")`, `did you mean "scope"?`, true},
		{`count(stat.stdout, .srv_uweight == 0)`, `"srv_uweight" is no column of it`, true},
	})
}

// TestPredicateOverJSONObjectsIsNoTable: ip -j link prints every
// interface with the same members on a host with no bridge (lo, eth0,
// ifb0: flags, mtu, operstate, …, and no master, which it writes for a
// bridge's port alone), and filter(l.stdout, .master == "br0") was a rule
// error calling master no column of a table. A table's cells (csv, tsv,
// columns, regex) are text or numbers: items holding a list, an object,
// a boolean or a null are JSON's, whose writers leave a member out, and
// a member none has reads as null there.
func TestPredicateOverJSONObjectsIsNoTable(t *testing.T) {
	t.Parallel()
	link := func(name, state string) map[string]any {
		return map[string]any{"ifindex": 1, "ifname": name, "flags": []any{"UP"}, "mtu": 1500, "operstate": state, "group": "default"}
	}
	env := mapEnv{
		"l":    map[string]any{"stdout": []any{link("lo", "UNKNOWN"), link("eth0", "UP")}},
		"stat": map[string]any{"stdout": []any{map[string]any{"svname": "app1", "weight": 1}, map[string]any{"svname": "app2", "weight": 0}}},
	}
	runValues(t, env, []valueCase{
		{`len(filter(l.stdout, .master == "br0"))`, "0", false},
		{`any(l.stdout, .opersate == "UP")`, `did you mean "operstate"?`, true},
		{`count(stat.stdout, .srv_uweight == 0)`, `"srv_uweight" is no column of it`, true},
	})
}

// TestGuardedMemberInAnotherCaseIsATypo: `(l.operState ?? "") == "DOWN"`
// over ip -j link's items, which write operstate, read every link as
// not down, and eth0, DOWN, was `up`, Consistent. A guard allows a
// member to be absent; one its object holds in another case is a typo
// (no JSON writer leaves a member out under one case and writes it
// under another), under ??, ?. and a nil test, over a scope key's path,
// an item's in a builtin's predicate, a call's result and what a
// computed key found (`last(filter(…))?.Value ?? ""` read no coredump
// setting, and the CIS check said fail, Consistent, of a host set as it
// asks). A member absent in every case
// is the absence the guard allows, as before.
func TestGuardedMemberInAnotherCaseIsATypo(t *testing.T) {
	t.Parallel()
	link := func(name, state string) map[string]any {
		return map[string]any{"ifname": name, "operstate": state, "mtu": 1500}
	}
	env := mapEnv{
		"l":      link("eth0", "DOWN"),
		"ip":     map[string]any{"stdout": []any{link("eth0", "DOWN"), link("lo", "UNKNOWN")}},
		"byName": map[string]any{"eth0": link("eth0", "DOWN")},
		"n":      "eth0",
	}
	tests := []valueCase{
		{`(l.operState ?? "") == "DOWN"`, `l has no member "operState"; did you mean "operstate"?`, true},
		{`l?.operState == "DOWN"`, `did you mean "operstate"?`, true},
		{`l.operState == nil`, `did you mean "operstate"?`, true},
		{`ip.stdout[0]?.operState ?? "?"`, `did you mean "operstate"?`, true},
		{`ip.stdout?.[0].OperState ?? "?"`, `did you mean "operstate"?`, true},
		{`len(filter(ip.stdout, (.operState ?? "") == "DOWN"))`, `no item of the list has a member "operState"; did you mean "operstate"?`, true},
		{`len(filter(ip.stdout, #?.operState == "DOWN"))`, `did you mean "operstate"?`, true},
		{`map(ip.stdout, .Ifname ?? "")`, `did you mean "ifname"?`, true},
		// a call's result, what a computed key found
		{`first(filter(ip.stdout, .ifname == "eth0"))?.operState ?? ""`, `did you mean "operstate"?`, true},
		{`last(ip.stdout)?.Operstate`, `did you mean "operstate"?`, true},
		{`(first(ip.stdout) ?? {}).operState ?? "x"`, `did you mean "operstate"?`, true},
		{`byName[n]?.OperState`, `did you mean "operstate"?`, true},
		// absent in every case: the guard's absence, as before
		{`first(filter(ip.stdout, .ifname == "nope"))?.operstate ?? "none"`, `none`, false},
		{`first(ip.stdout)?.master ?? "none"`, `none`, false},
		{`first(ip.stdout)?.stats?.rx ?? 0`, `0`, false},
		{`byName["wlan0"]?.operstate ?? "gone"`, `gone`, false},
		{`(l.speed ?? 0) == 0`, `true`, false},
		{`l?.master == nil`, `true`, false},
		{`len(filter(ip.stdout, (.master ?? "") == "br0"))`, `0`, false},
		// present as written
		{`(l.operstate ?? "") == "DOWN"`, `true`, false},
		{`len(filter(ip.stdout, (.operstate ?? "") == "DOWN"))`, `1`, false},
		// a typo other than of case under a guard is not judged (a design
		// question: docs/CHARTS.md)
		{`l.operstat ?? "none"`, `none`, false},
	}
	runValues(t, env, tests)
}

// TestGuardedMemberReadInBothCasesIsNoTypo: a chart written for docker
// and podman alike reads a container's id as `c.ID ?? c.Id` (docker ps
// --format json writes ID, podman 4.3's writes Id). Over podman's the
// guarded ID is the absence the guard allows, since the expression reads
// Id too; it was a rule error (did you mean "Id"?) and every container
// not judged. A guarded read in another case alone is still a typo, and
// so is one whose other case is read apart, not as its alternative (a ??
// chain's other operand, a conditional's other branch).
func TestGuardedMemberReadInBothCasesIsNoTypo(t *testing.T) {
	t.Parallel()
	podman := map[string]any{"Id": "7274", "Names": []any{"web"}, "State": "running"}
	env := mapEnv{
		"c":      podman,
		"ps":     map[string]any{"stdout": []any{podman}},
		"byName": map[string]any{"web": podman},
		"n":      "web",
	}
	tests := []valueCase{
		{`c.ID ?? c.Id ?? ""`, `7274`, false},
		{`c?.ID ?? c?.Id`, `7274`, false},
		{`c.ID != nil ? c.ID : c.Id`, `7274`, false},
		{`map(ps.stdout, .ID ?? .Id)[0]`, `7274`, false},
		{`first(ps.stdout)?.ID ?? first(ps.stdout)?.Id`, `7274`, false},
		{`byName[n]?.ID ?? byName[n]?.Id`, `7274`, false},
		// one case alone is still judged
		{`c.ID ?? ""`, `did you mean "Id"?`, true},
		{`map(ps.stdout, .ID ?? "")`, `did you mean "Id"?`, true},
		{`byName[n]?.ID ?? ""`, `did you mean "Id"?`, true},
		// two cases read apart, not as alternatives: one is a typo (the
		// misspelling sweep's License beside license)
		{`c.ID == nil || c.Id == ""`, `did you mean "Id"?`, true},
		{`(c.ID ?? "") + (c.Id ?? "")`, `did you mean "Id"?`, true},
		{`(c.ID ?? "") == "" ? "none" : c.Id`, `did you mean "Id"?`, true},
	}
	runValues(t, env, tests)
}

// TestGuardedCaseTypoSaysHowToReadAChosenKey: a container labelled
// App=web read as `c.Labels?.app ?? ""` is a rule error (wave-fa2's
// design question: a label's keys are names someone chose, and app is
// another label than App); the error says how to read such a key, and
// get() reads it as absent, as asked.
func TestGuardedCaseTypoSaysHowToReadAChosenKey(t *testing.T) {
	t.Parallel()
	env := mapEnv{"c": map[string]any{"Labels": map[string]any{"App": "web"}}}
	runValues(t, env, []valueCase{
		{`c.Labels?.app ?? ""`, `read it with get(OBJECT, "KEY")`, true},
		{`get(c.Labels, "app") ?? "none"`, `none`, false},
	})
}

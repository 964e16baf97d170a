package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemJQNull is the kind of the not-checked item filed for an exec stage
// that ran jq and whose output holds jq's null where a value was asked
// for (JQNull). jq prints null for a path that holds no value, and a key
// the object lacks is such a path: `ip -j addr | jq -r '.[] |
// "\(.ifname) \(.operState)"'` (ip writes operstate) printed `eth0 null`
// for every link, exit 0, and a chart asking `i.state == "DOWN"` called a
// link that was down up, Nagios OK, Consistent. The word "null" is no
// state a tool reported, and under `jq -e` the exit 1 a chart declared
// "false" is jq's answer over null as much as over false
// (cmd/runbook TestJQNullIsNoAnswer).
const ItemJQNull = "jq-null"

// JQNull is the output's first line on which jq printed null where a
// value was asked for, "" when none: a line that is null alone, and
// under json or jsonl unindented, a value jq printed whole (a
// pretty-printed list's null element is indented, and is a value the
// tool gave: lsblk's mountpoints [null]). A null among other words is
// judged in the rows a structured mode made of it (JQNullWord), never in
// text or lines, whose lines may be prose: `jq -r .MESSAGE` over the
// journal prints "received null pointer" as a message says it.
func JQNull(mode, stdout string) string {
	json := mode == "json" || mode == "jsonl"
	for _, l := range strings.Split(stdout, "\n") {
		l = strings.TrimRight(l, "\r")
		if json && strings.TrimRight(l, " \t") == "null" || !json && strings.TrimSpace(l) == "null" {
			return l
		}
	}
	return ""
}

// JQNullWord says where a structured text mode's value (columns, csv,
// tsv, regex: a list of rows; kv: one object) holds the word null as a
// whole value, "" when none does: `"\(.ifname) \(.operState)"` read as
// columns gave state "null", and `"\(.ifname)=\(.operState)"` read as kv
// gave eth0 "null".
func JQNullWord(v any) string {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			o, ok := e.(map[string]any)
			if !ok {
				continue
			}
			for _, k := range sortedKeys(o) {
				if o[k] == "null" {
					return fmt.Sprintf("row %d holds the word null as its %q", i+1, k)
				}
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if x[k] == "null" {
				return fmt.Sprintf("row %q holds the word null as its value", k)
			}
		}
	}
	return ""
}

// JQNullMember says where a value parsed from jq's JSON holds a member
// that is null in every object of a list of them (one object or more),
// "" when none does: jq writes null for a key its input lacks, so
// `jq '[.[] | {name: .ifname, state: .operState}]'` (ip writes
// operstate) gave every link "state": null, and `i.state == "DOWN"`,
// null against a text, was a plain no over a link that was down. A key
// the tool left null for some items and set for others is the tool's.
func JQNullMember(v any) string {
	switch x := v.(type) {
	case []any:
		if m := nullInEvery(x); m != "" {
			return fmt.Sprintf("member %q is null in each of the %s of a list", m, plural(len(x), "object"))
		}
		for _, e := range x {
			if w := JQNullMember(e); w != "" {
				return w
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(x) {
			if w := JQNullMember(x[k]); w != "" {
				return w
			}
		}
	}
	return ""
}

// JQEmptyColumn says which column of rows (a csv or tsv parse of jq's
// @tsv or @csv) is the empty text in every row, "" when none is: those
// formats write null as an empty field, so `[.ifname, .operState] |
// @tsv` (ip writes operstate) gave every link an empty state, and
// `i.state == "DOWN"` was a plain no over a link that was down.
func JQEmptyColumn(rows any) string {
	list, _ := rows.([]any)
	name := memberInEvery(list, func(v any, has bool) bool { return has && v == "" })
	if name == "" {
		return ""
	}
	return fmt.Sprintf("column %q is empty in each of the %s (@tsv and @csv write null as an empty field)", name, plural(len(list), "row"))
}

// nullInEvery is a member null in every element of list when each is an
// object (the first by name), "" otherwise.
func nullInEvery(list []any) string {
	return memberInEvery(list, func(v any, has bool) bool { return has && v == nil })
}

// memberInEvery is the first member, by name, whose value holds in every
// element of list, each an object; "" when none does, when an element is
// no object, and over no element.
func memberInEvery(list []any, holds func(v any, has bool) bool) string {
	if len(list) == 0 {
		return ""
	}
	var names []string
	for i, e := range list {
		o, ok := e.(map[string]any)
		if !ok {
			return ""
		}
		if i == 0 {
			for _, k := range sortedKeys(o) {
				if v, has := o[k]; holds(v, has) {
					names = append(names, k)
				}
			}
			continue
		}
		names = slices.DeleteFunc(names, func(k string) bool { v, has := o[k]; return !holds(v, has) })
		if len(names) == 0 {
			return ""
		}
	}
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// sortedKeys are o's keys in order.
func sortedKeys(o map[string]any) []string {
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// JQNullEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it
// ("" when none), line the output's first line holding the null, or
// where in its parsed JSON or rows (masked already; JQNull,
// JQNullWord, JQNullMember, JQEmptyColumn).
func JQNullEntry(path string, exit int, word, line string) coverage.Entry {
	at := fmt.Sprintf("its output's first such line: %q", cutLine(line))
	switch {
	case strings.HasPrefix(line, `member "`) && strings.Contains(line, " is null in each of the "):
		at = "in its JSON, " + line
	case strings.HasPrefix(line, `column "`) && strings.Contains(line, " is empty in each of the "),
		strings.HasPrefix(line, "row ") && strings.Contains(line, " holds the word null as its "):
		at = "in its rows, " + line
	}
	ended := exitedThough(exit, word)
	if word != "" {
		ended += " (jq -e exits 1 over null as over false)"
	}
	return outputEntry(path, fmt.Sprintf("jq printed null where its filter asked for a value %s: a path that holds no value prints null, a key the object lacks (misspelt, or spelt in another case) as much as one set to null, so the word is no value the tool gave and a rule over it judges nothing; %s; check the filter's keys against the tool's JSON, and say what no value means with jq's alternative, (.key // \"none\"), or pick the objects that have it, select(has(\"key\"))",
		ended, at), ItemJQNull)
}

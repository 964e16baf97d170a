package record

import (
	"fmt"
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
// value was asked for, "" when none: under a text mode (mode "" or any
// mode but json and jsonl) a field, split by blanks and tabs, that is
// the word null; under json or jsonl a line that is null alone and
// unindented, a value jq printed whole (a pretty-printed list's null
// element is indented, and is a value the tool gave: lsblk's mountpoints
// [null]).
func JQNull(mode, stdout string) string {
	json := mode == "json" || mode == "jsonl"
	for _, l := range strings.Split(stdout, "\n") {
		l = strings.TrimRight(l, "\r")
		if json {
			if strings.TrimRight(l, " \t") == "null" {
				return l
			}
			continue
		}
		for _, f := range strings.FieldsFunc(l, func(r rune) bool { return r == ' ' || r == '\t' }) {
			if f == "null" {
				return l
			}
		}
	}
	return ""
}

// JQNullEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it
// ("" when none), line the output's first line holding the null (masked
// already; JQNull).
func JQNullEntry(path string, exit int, word, line string) coverage.Entry {
	ended := fmt.Sprintf("though it exited %d", exit)
	if word != "" {
		ended = fmt.Sprintf("though it exited %d, which the chart declares the answer %q (jq -e exits 1 over null as over false)", exit, word)
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its output",
			Why: fmt.Sprintf("jq printed null where its filter asked for a value %s: a path that holds no value prints null, a key the object lacks (misspelt, or spelt in another case) as much as one set to null, so the word is no value the tool gave and a rule over it judges nothing; its output's first such line: %q; check the filter's keys against the tool's JSON, and say what no value means with jq's alternative, (.key // \"none\"), or pick the objects that have it, select(has(\"key\"))",
				ended, cutLine(line)),
			Kind: ItemJQNull,
		}},
	}}
}

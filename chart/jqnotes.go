package chart

import (
	"regexp"
	"strings"
)

// jqInShell is a shell line that runs jq: the word jq (or a path ending
// in /jq) where a command begins or a pipeline hands on.
var jqInShell = regexp.MustCompile(`(^|[\s;&|(/])jq(\s|$)`)

// RunsJQ says whether the exec runs jq (`[jq, -r, …]`, or a shell: line
// that pipes through it), whose filter prints `null` for a path that
// holds no value: a key the object lacks (a key misspelt, or spelt in
// another case) as much as one whose value is null. Read as text (-r),
// that null is the word "null" (runbook's jqNull, record.JQNull).
func (e *ExecSpec) RunsJQ() bool { return e.runs(jqInShell, "jq") }

// JQFormatsFields says whether the exec's jq filter writes its rows with
// @tsv or @csv, which write null as an empty field (record.JQEmptyColumn).
func (e *ExecSpec) JQFormatsFields() bool {
	if !e.RunsJQ() {
		return false
	}
	text := e.Shell + " " + strings.Join(e.Command, " ")
	return strings.Contains(text, "@tsv") || strings.Contains(text, "@csv")
}

package chart

import (
	"path/filepath"
	"regexp"
	"slices"
)

// digShortInShell is a shell line running dig with +short before the line
// or the pipeline ends.
var digShortInShell = regexp.MustCompile(`(^|[\s;&|(/])dig\s[^|;&\n]*\+short\b`)

// DigShortSilence is the note for an exec that runs dig +short ("" when it
// does not): dig exits 0 over a SERVFAIL and a REFUSED as over an answer,
// and +short prints nothing for them, as for a name that does not exist
// (NXDOMAIN) or has no such record, so an empty output says none of those
// apart and a rule over it reads a server that failed as no record. Its
// status is in dig's header without +short, which a run reads
// (record.ItemNoDNSAnswer). A command line or a shell: line of dig with
// +short is noted.
//
//	[dig, +short, example.test, MX]              noted
//	shell: dig +short "$N" TXT | tr -d '"'        noted
//	[dig, +noall, +comments, +answer, NAME, MX]  not noted
func (e *ExecSpec) DigShortSilence() string {
	if e == nil {
		return ""
	}
	short := false
	if len(e.Command) > 0 && filepath.Base(e.Command[0]) == "dig" {
		short = slices.Contains(e.Command[1:], "+short")
	}
	if !short && e.Shell != "" {
		short = digShortInShell.MatchString(e.Shell)
	}
	if !short {
		return ""
	}
	return "it runs dig +short, which prints nothing and exits 0 over a SERVFAIL or a REFUSED as over a name with no such record, so an empty output is no answer of none; run dig without +short (dig +noall +comments +answer NAME TYPE), whose header says the status (NOERROR, NXDOMAIN, SERVFAIL), judge that status, and a run says where the server gave no answer"
}

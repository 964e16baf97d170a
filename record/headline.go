package record

import "strings"

// Headline is an error message as one line, for every place a person reads
// one (the standing line's clauses, `run failed at …`, a tool's text, a
// Nagios summary): its first line, and whether more followed. A plugin's
// recovered panic puts its goroutine's stack after the first line (issue
// #17), kilobytes no one line should carry. The whole message stays on the
// record; each caller says where its reader finds it.
//
//	Headline("exit 3")                                   "exit 3", false
//	Headline("plugin panicked: boom\n\npanic: boom\n…")  "plugin panicked: boom", true
func Headline(msg string) (string, bool) {
	line, rest, cut := strings.Cut(msg, "\n")
	if !cut || strings.TrimSpace(rest) == "" {
		return strings.TrimSpace(line), false
	}
	return strings.TrimSpace(line), true
}

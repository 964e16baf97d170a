package record

import "strings"

// RoutineNotice says whether a line a command wrote on stderr is a tool's
// routine notice, printed on every run whatever the answer, which is no
// sign of a failure nor of output left out:
//
//	Init SSL without certificate database   NUT's client library (upsc, upslog) on every connection with no CERTPATH
//
// `upsc -c UPS@HOST` over a UPS no upsmon is logged in to prints nothing
// and exits 0 beside it, and its true answer (no client) stood Not sure,
// the notice quoted as the failure it might be (TestNUTSSLNoticeIsNoStderr).
// A line is judged whole, its blanks at both ends aside.
func RoutineNotice(line string) bool {
	return strings.TrimSpace(line) == "Init SSL without certificate database"
}

// FirstSaid is stderr's first line that is neither blank nor a routine
// notice (RoutineNotice), trimmed: the first thing a command wrote there
// that may say it failed or left something out; "" when there is none.
func FirstSaid(stderr string) string {
	for line := range strings.SplitSeq(stderr, "\n") {
		if t := strings.TrimSpace(line); t != "" && !RoutineNotice(t) {
			return t
		}
	}
	return ""
}

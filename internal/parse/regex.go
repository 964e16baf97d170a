package parse

import (
	"fmt"
	"regexp"
	"strings"
)

// re is `regex`: a list of objects, one per line the pattern (RE2, see
// regexp/syntax) matches, keyed by its named groups. A group that took no
// part in the match is absent; unnamed groups are not keys.
//
//	pattern  the RE2 pattern, with at least one named group (?P<name>…) or (?<name>…)
//	numbers  false keeps every value a string
//
// A non-blank line the pattern does not match is a problem, and so is one
// whose match ends (or begins) inside a number written with an exponent,
// the number cut short in a group (cutNumber), and one a syslog daemon
// wrote for many messages whose count no group reads (foldedRepeats).
// Under records: nul the pattern's . spans a newline (flag s), and a
// record holding a newline the match does not take in is a problem: the
// record is a file name, and git status -z's "?? build.log\nkey.pem" read
// by ^(?P<xy>..) (?P<path>.+) was the file build.log
// (TestNulRecordNewlineIsReadWhole).
type re struct {
	rx      *regexp.Regexp
	numbers valuer
	// skip is how many lines (records) are passed over first, unread: a
	// header the pattern is not for (/proc/PID/limits' `Limit  Soft
	// Limit …`), which was a problem on every run.
	skip int
}

func newRegex(o opts) (parser, error) {
	pat, ok, err := o.string("pattern")
	if err != nil {
		return nil, err
	}
	if !ok || pat == "" {
		return nil, fmt.Errorf("parse mode regex needs pattern: an RE2 pattern with named groups, such as '(?P<key>\\w+)=(?P<value>.*)'")
	}
	// Under records: nul a record is a name, and a name may hold a
	// newline: `.` spans it, as a record's every byte is its own
	// (records: nul over git status -z read "build.log\nkey.pem" as
	// build.log).
	flags := ""
	if o.m["records"] == "nul" {
		flags = "(?s)"
	}
	rx, err := regexp.Compile(flags + pat)
	if err != nil {
		return nil, fmt.Errorf("parse mode regex: pattern %q is not RE2: %w", pat, err)
	}
	named := 0
	seen := map[string]bool{}
	for _, n := range rx.SubexpNames() {
		if n == "" {
			continue
		}
		if seen[n] {
			return nil, fmt.Errorf("parse mode regex: pattern %q names group %q twice", pat, n)
		}
		seen[n] = true
		named++
	}
	if named == 0 {
		return nil, fmt.Errorf("parse mode regex: pattern %q has no named group; name what to keep with (?P<name>…)", pat)
	}
	p := &re{rx: rx}
	if p.numbers, err = o.valuer(); err != nil {
		return nil, err
	}
	if p.skip, err = o.whole("skip"); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *re) parse(text string, r *recorder) any {
	out := []any{}
	names := p.rx.SubexpNames()
	for i, s := range r.records(text) {
		if i < p.skip || blank(s) {
			continue
		}
		m := p.rx.FindStringSubmatchIndex(s)
		if m == nil {
			r.problem(i+1, s, "the pattern does not match")
			continue
		}
		if r.nul && (strings.Contains(s[:m[0]], "\n") || strings.Contains(s[m[1]:], "\n")) {
			r.problem(i+1, s, "the record holds a newline the match does not take in, so a name with a newline in it would be read as the part on one side: let the pattern read the whole record (under records: nul . spans a newline: (?P<path>.+)$; \\S and [^ ] stop at it)")
			continue
		}
		if why := cutNumber(s, m, names); why != "" {
			r.problem(i+1, s, why)
			continue
		}
		if why := foldedRepeats(s, m, names); why != "" {
			r.problem(i+1, s, why)
			continue
		}
		obj := map[string]any{}
		for g, n := range names {
			if n == "" || m[2*g] < 0 {
				continue
			}
			obj[n] = p.numbers.of(s[m[2*g]:m[2*g+1]])
		}
		out = append(out, obj)
	}
	return out
}

// numberGoesOn is what follows a number's digits when the number goes on
// to an exponent (.2e+06, e+10), and numberWentBefore what precedes
// digits that are a number's exponent (1.2e+, 5e-): the exponent's sign
// is written by every tool that prints one (printf's %g, Go, Python),
// so a hexadecimal id (1e5f) is neither.
var (
	numberGoesOn     = regexp.MustCompile(`^(\.[0-9]+)?[eE][+-][0-9]`)
	numberWentBefore = regexp.MustCompile(`[0-9](\.[0-9]*)?[eE][+-]$`)
	digitsOnly       = regexp.MustCompile(`^[+-]?[0-9]+(\.[0-9]+)?$`)
	commaGoesOn      = regexp.MustCompile(`^,[0-9]`)
	commaThenThree   = regexp.MustCompile(`^(?:,[0-9]{3})+(?:[^0-9.,]|$)`)
	// sizeUnitGoesOn is a size's unit written against its digits, as
	// tools print sizes for people: btrfs's 169.00MiB, df -h's 12G,
	// free -h's 15Gi, ls -lh's 4.0K, a byte count's 0.00B
	sizeUnitGoesOn = regexp.MustCompile(`^(?:[KMGTPEZY](?:i?B|i)?|B|kB?)(?:[^A-Za-z]|$)`)
)

// cutNumber is the problem of a match whose named group holds digits at
// the match's end where the line's number goes on to its exponent, or at
// the match's start where they are an exponent's ("" when none): the
// pattern is searched, not matched whole, so (?P<v>[0-9.]+) over the
// node exporter's 1.2e+06 (Go prints a float of a million or more so)
// read 1.2, and v > 1000 called a queue of 1.2 million ok, Consistent. A
// match that stops before other text is no problem; one that stops
// inside a number is a number misread, and so is one that stops at a
// size's unit written against its digits: `Free \(estimated\):\s+(?P<free>
// [0-9.]+)` over btrfs filesystem usage's `169.00MiB` read 169, and
// free < 1 (GiB) said ok, Consistent (TestRegexNumberWithoutItsUnitIsAProblem).
func cutNumber(s string, m []int, names []string) string {
	for g, n := range names {
		a, b := m[2*g], m[2*g+1]
		if n == "" || a < 0 || !digitsOnly.MatchString(s[a:b]) {
			continue
		}
		if b == m[1] && commaGoesOn.MatchString(s[b:]) {
			to := b + 1
			for to < len(s) && (s[to] >= '0' && s[to] <= '9' || s[to] == ',' || s[to] == '.') {
				to++
			}
			if commaThenThree.MatchString(s[b:]) {
				return fmt.Sprintf("the group %q read %q of %s: the match stopped at a comma with three digits after it; take the whole, as (?P<%s>[0-9.,]+) does, and read it: %s", n, s[a:b], strings.TrimRight(s[a:to], ",."), n, CommaReadings(`float(replace(x, ",", "."))`))
			}
			return fmt.Sprintf("the group %q read %q of %s: the match stopped at a comma with digits after it, a decimal comma (4,54, as a host whose LC_NUMERIC is de_DE or fr_FR prints a number: a remote shell, a container) or a list (0,1,2) going on; have the tool print C's numbers (LC_ALL=C), or take the whole, as (?P<%s>[0-9.,]+) does, and read it with float(replace(x, \",\", \".\"))", n, s[a:b], strings.TrimRight(s[a:to], ",."), n)
		}
		if b == m[1] && sizeUnitGoesOn.MatchString(s[b:]) {
			unit := s[b:]
			if i := strings.IndexFunc(unit, func(r rune) bool { return !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z') }); i >= 0 {
				unit = unit[:i]
			}
			return fmt.Sprintf("the group %q read %q of the size %s%s: the match stopped at its unit, so the number is of no known unit (a tool that prints sizes for people picks the unit by the size: 169.00MiB and 1.50GiB); have the tool print bytes (btrfs -b or --raw, df -B1, du -b, free -b), or read the unit too, as (?P<%s>[0-9.]+)(?P<unit>[A-Za-z]*) does, and judge them together", n, s[a:b], s[a:b], unit, n)
		}
		if !(b == m[1] && numberGoesOn.MatchString(s[b:])) && !(a == m[0] && numberWentBefore.MatchString(s[:a])) {
			continue
		}
		from, to := a, b
		for from > 0 && strings.IndexByte("+-.0123456789eE", s[from-1]) >= 0 {
			from--
		}
		for to < len(s) && strings.IndexByte("+-.0123456789eE", s[to]) >= 0 {
			to++
		}
		return fmt.Sprintf("the group %q read %q of the number %s: the match stopped inside it; take the whole number, as (?P<%s>\\S+) or (?P<%s>[-+0-9.eE]+) does", n, s[a:b], s[from:to], n, n)
	}
	return ""
}

// A syslog daemon that is sent one message again and again writes it
// once with a count: rsyslog (RepeatedMsgReduction: off by default, on
// in Ubuntu's rsyslog.conf) as `sshd[101]: message repeated 5 times:
// [ Failed password …]`, BSD syslogd and sysklogd as `last message repeated 5
// times` after the first, syslog-ng (suppress()) as `Last message '…'
// repeated 5 times, suppressed by syslog-ng on HOST`. sshd under PAM
// folds a connection's failures after the first the same way, `PAM 2
// more authentication failures; … user=root`, after pam_unix's
// `authentication failure; … user=root` for the first.
var (
	foldOne    = regexp.MustCompile(`(?:^|[\s:])message repeated ([0-9]+) times: \[`)
	foldBefore = regexp.MustCompile(`(?:^|\s)(?:[Ll]ast message (?:'.*' )?repeated ([0-9]+) times|PAM ([0-9]+) more authentication failures?;)`)
)

// foldedRepeats is the problem of a line that stands for several
// messages a syslog daemon folded into one ("" when the line is no such
// fold, or a named group reads its count): read as one row, it is one
// message to a count of rows, and a check of sshd's failed passwords per
// user read root's six as two, ok, Consistent. A chart that reads the
// count with a group counts it itself.
func foldedRepeats(s string, m []int, names []string) string {
	if !strings.Contains(s, "repeated ") && !strings.Contains(s, " more authentication failure") {
		return "" // most lines: no regexp run for them
	}
	one := true
	at := foldOne.FindStringSubmatchIndex(s)
	if at == nil {
		one = false
		if at = foldBefore.FindStringSubmatchIndex(s); at == nil {
			return ""
		}
	}
	from, to := at[2], at[3]
	if from < 0 { // PAM's
		from, to = at[4], at[5]
	}
	for g, n := range names {
		if n != "" && m[2*g] == from && m[2*g+1] == to {
			return ""
		}
	}
	times := s[from:to]
	switch {
	case one:
		return "it stands for " + times + " messages the syslog daemon wrote as one (rsyslog's RepeatedMsgReduction), so a count of rows " +
			"would count it once: read the count with a named group, as (?:message repeated (?P<times>\\d+) times: \\[ )? does, " +
			"and count it, or read the messages where they are not folded (journalctl)"
	case at[2] >= 0:
		return "it stands for " + times + " more of the message before it, which the syslog daemon did not write again (a BSD syslogd's " +
			"or sysklogd's fold, syslog-ng's suppress()), so a count of rows would count it once, or not at all: read the count with a " +
			"named group, as last message repeated (?P<times>\\d+) times does, and count it, or read the messages where they are not folded"
	}
	return "it stands for " + times + " more authentication failures of the connection, which sshd wrote as one after PAM's first, " +
		"so a count of rows would count it once: read the count with a named group, as PAM (?P<more>\\d+) more authentication " +
		"failures? does, and count it"
}

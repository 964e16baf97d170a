package record

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemNoDNSAnswer is the kind of the not-checked item filed for an exec
// stage whose command ended as no failure (exit 0, or a code the chart
// declared an answer) while its output says the name server gave no
// answer: the server failed (SERVFAIL), refused the query (REFUSED), did
// not know it (NOTIMP, FORMERR), or no server could be reached. host and
// nslookup exit 1 for each of these as for NXDOMAIN, the one answer that
// says a name does not exist, and print the difference on stdout alone:
// `host old.example.test` under `exitCodes: {0: found, 1: not-found}`
// read a zone that failed to load (`Host broken.test not found:
// 2(SERVFAIL)`) and a server that was down (`;; no servers could be
// reached`) as a retired name gone, Nagios OK
// (TestResolverThatGaveNoAnswerIsNoAnswer). dig exits 0 over a SERVFAIL
// and prints it in its header (`;; ->>HEADER<<- opcode: QUERY, status:
// SERVFAIL`), +yaml as `status: SERVFAIL`, with no answer section: a
// chart that reads the records found none. What the tool printed is
// kept; a name the server did not answer for is not known to be absent.
// dig +short prints nothing at all over a SERVFAIL, exit 0, and is not
// seen here: judge dig's status, not +short's silence.
const ItemNoDNSAnswer = "no-dns-answer"

// dnsNoAnswer is the rule, one line at a time, each anchored at the
// line's start as the tool prints it (a tool prints these on stdout, some
// versions on stderr), so a log that quotes one behind its timestamp (a
// scan of syslog for resolver errors) is not read as a lookup of its own:
//
//	";; no servers could be reached"                 dig, host, nslookup: no server answered
//	";; connection timed out; no servers …"          the same, older versions
//	"Host NAME not found: 2(SERVFAIL)", "5(REFUSED)" host
//	"** server can't find NAME: SERVFAIL", "REFUSED" nslookup
//	";; ->>HEADER<<- … status: SERVFAIL," …          dig's header
//	"status: SERVFAIL" alone on its line             dig +yaml
//
// NXDOMAIN and NOERROR are answers and never match.
var dnsNoAnswer = regexp.MustCompile(`^;; (connection timed out; )?no servers could be reached|^Host \S+ not found: \d+\((SERVFAIL|REFUSED|NOTIMP|FORMERR)\)|^\*\* server can't find .*: (SERVFAIL|REFUSED|NOTIMP|FORMERR)\b|^;; ->>HEADER<<-.*status: (SERVFAIL|REFUSED|NOTIMP|FORMERR)\b|^\s*status: (SERVFAIL|REFUSED|NOTIMP|FORMERR)\s*$`)

// NoDNSAnswer is the first line of text (a command's stdout or stderr)
// saying the name server gave no answer (dnsNoAnswer), "" when none does.
func NoDNSAnswer(text string) string {
	return firstLine(text, dnsNoAnswer.MatchString)
}

// NoDNSAnswerEntry is the ledger's entry for such a stage, filed under its
// path: exit is the exit code, word the answer the chart declared for it
// ("" when none), line the output's first line saying so (masked
// already; NoDNSAnswer).
func NoDNSAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	ended := exitedThough(exit, word)
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its answer",
			Why: fmt.Sprintf("it said the name server gave no answer (it failed, refused or could not be reached) %s, so what it printed holds no records and says nothing of whether the name exists, and a name it did not answer for is not known to be absent; its first such line: %q; only NXDOMAIN says a name does not exist: judge the status the tool prints (host's \"3(NXDOMAIN)\", dig's \"status: NXDOMAIN\"), not its exit code, and ask a server that answers",
				ended, cutLine(line)),
			Kind: ItemNoDNSAnswer,
		}},
	}}
}

// unresolvedWords are what a command prints, in any case, when it found
// no address for the host name it was given (getaddrinfo's EAI_NONAME
// and EAI_AGAIN in glibc's words, and the tools' own): it never reached
// the host.
var unresolvedWords = []string{
	"name or service not known",            // glibc: nc, ping, ssh, psql
	"temporary failure in name resolution", // glibc: no server answered
	"no address associated with hostname",  // glibc
	"nodename nor servname provided",       // BSD libc
	"could not resolve",                    // curl, ssh ("Could not resolve hostname")
	"could not translate host name",        // libpq: psql, pg_isready
	"unable to resolve host",               // wget (sudo's own is not: ownHostUnresolved)
}

// Unresolved is stderr's first line saying the command found no address
// for the host it was given (unresolvedWords), "" when none does. Under
// an exit code the chart declared an answer it is no answer
// (UnresolvedAnswerEntry).
func Unresolved(stderr string) string {
	return firstLine(stderr, func(l string) bool {
		low := strings.ToLower(l)
		return !ownHostUnresolved(low) && slices.ContainsFunc(unresolvedWords, func(w string) bool { return strings.Contains(low, w) })
	})
}

// ownHostUnresolved says whether a line (lower case) is sudo's warning
// that the machine's own name has no address (`sudo: unable to resolve
// host vm: Name or service not known`: a container whose /etc/hosts
// lacks its hostname), which sudo prints before running the command,
// and runs it: no host the command was given went unreached. Read as
// one, every `sudo -n -l -U USER` and `sudo -n CMD` on such a host stood
// Not sure, saying to check a host name nobody gave
// (cmd/runbook TestSudoOwnHostUnresolvedIsNoHostUnreached).
func ownHostUnresolved(low string) bool {
	return strings.HasPrefix(strings.TrimSpace(low), "sudo: unable to resolve host ")
}

// UnresolvedAnswerEntry is the ledger's entry for a stage whose exit code
// the chart declared the answer word, when stderr said the command found
// no address for its host (Unresolved; line masked already). `nc -z -w2
// HOST 23` with `exitCodes: {0: open, 1: closed}`, a check that telnet is
// closed, exits 1 over a closed port and as much over a host name it
// could not resolve (`nc: getaddrinfo for host "db01.prod" port 23: Name
// or service not known`): a name misspelt in the inputs, or a resolver
// down, read as a port closed, OK, Consistent
// (cmd/runbook TestUnresolvedHostUnderDeclaredCodeIsNoAnswer).
func UnresolvedAnswerEntry(path string, exit int, word, line string) coverage.Entry {
	return answerEntry(path, fmt.Sprintf("it exited %d, which exitCodes: declares the answer %q, but it said on stderr that it found no address for the host it was given, so it never reached the host, and %q is not known of it (a name misspelt, or no name server answering); stderr's first such line: %q; check the name, or say which stderr the answer goes with, {%d: {word: %s, stderr: TEXT}}, and the other is a failure", exit, word, word, cutLine(line), exit, word), ItemNoDNSAnswer)
}

// ItemDigShortBlank is the kind of the not-checked item filed for an exec
// stage that runs dig with a display that prints no status
// (chart.ExecSpec.DigStatusUnprinted: +short, or +noall or +nocomments
// with no +comments after it), ended as no failure and printed nothing
// on stdout. Such a dig prints nothing and exits 0 over a REFUSED or a
// SERVFAIL as over NXDOMAIN or a name with no record of the type, so its
// silence is no answer of none: a key-rotation check asking `dig +short
// TXT old._domainkey.DOMAIN` of a server that refused the zone said the
// old selector removed, OK, Consistent (cmd/runbook
// TestDigShortSilenceIsNoAnswer), and so did one asking `dig +noall
// +answer` (TestDigAnswerAloneSilenceIsNoAnswer). Where it printed
// records, they are the server's answer and nothing is filed. The kind
// keeps the name it had when +short was the one display judged.
const ItemDigShortBlank = "dig-short-blank"

// DigShortBlankEntry is the ledger's entry for such a stage, filed under
// its path: exit is the exit code, word the answer the chart declared for
// it ("" when none), opt the option that left the status unprinted
// ("+short", "+noall", …).
func DigShortBlankEntry(path string, exit int, word, opt string) coverage.Entry {
	why := fmt.Sprintf("it runs dig +short and printed nothing %s: +short prints nothing over a REFUSED or a SERVFAIL as over a name with no such record, so its silence is no answer of none; run dig +noall +comments +answer NAME TYPE, whose header says the status (NXDOMAIN, NOERROR, SERVFAIL, REFUSED), and judge that",
		exitedThough(exit, word))
	if opt != "+short" {
		why = fmt.Sprintf("it runs dig with %s and no +comments after it, so dig printed no header, and it printed nothing %s: such a dig prints nothing over a REFUSED or a SERVFAIL as over a name with no such record, so its silence is no answer of none; add +comments (dig +noall +comments +answer NAME TYPE), whose header says the status (NXDOMAIN, NOERROR, SERVFAIL, REFUSED), and judge that",
			opt, exitedThough(exit, word))
	}
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its answer",
			Why:  why,
			Kind: ItemDigShortBlank,
		}},
	}}
}

// ItemAliasUnfollowed is the kind of the not-checked item filed for an
// exec stage running dig that ended as no failure, whose answer section
// ends at an alias (a CNAME whose target owns no record in it) from a
// server that said it does not recurse (no "ra" among the header's
// flags): an authoritative server answers a name that is an alias with
// the CNAME alone when the target is in a zone it does not serve, so the
// records asked for are at the target, which nobody asked. A domain
// whose DMARC record is an alias to its provider's (`_dmarc.DOMAIN CNAME
// _dmarc.provider.example.`), asked of its own server, read as no DMARC
// record, Consistent (cmd/runbook TestAliasAnswerUnfollowedIsNoAnswer,
// testdata/wave-mailauth/dmarc). A recursive server follows the alias,
// and one that returns it unresolved says the target holds no such
// record: an answer. A query for CNAME itself (or ANY) is answered by
// the alias.
const ItemAliasUnfollowed = "alias-unfollowed"

// AliasUnfollowed is the answer line of dig's output (the stdout of one
// or more queries) that is an alias no one followed, "" when none is,
// and why it was not followed: a CNAME in an answer section whose target
// owns no record of that section, from a message whose `;; flags:` line
// has no "ra", or with no flags line at all (dig +noall +answer), which
// says nothing of whether the server recursed. An SOA in the message's
// authority section is the server's negative answer for a target in its
// own zone (the alias followed, no such record there), and the message
// is an answer; dig prints that section only by default or under
// +authority. qtype is the type asked
// (upper case); a query for CNAME or ANY is never one.
func AliasUnfollowed(stdout, qtype string) (line, why string) {
	if qtype == "CNAME" || qtype == "ANY" {
		return "", ""
	}
	flagged, recurses, inAnswer, inAuthority, negative := false, false, false, false, false
	owners := map[string]bool{}
	var aliases [][2]string // the line, its target
	end := func() (string, string) {
		defer func() { owners, aliases, negative = map[string]bool{}, nil, false }()
		if recurses || negative {
			return "", ""
		}
		for _, a := range aliases {
			if !owners[a[1]] {
				if flagged {
					return a[0], `from a server that does not recurse (no "ra" among its flags)`
				}
				return a[0], "with no header saying whether the server recursed (dig printed no flags line)"
			}
		}
		return "", ""
	}
	for l := range strings.SplitSeq(stdout, "\n") {
		l = strings.TrimRight(l, "\r")
		if flags, ok := strings.CutPrefix(l, ";; flags:"); ok {
			if line, why := end(); line != "" {
				return line, why
			}
			flags, _, _ = strings.Cut(flags, ";")
			flagged, recurses, inAnswer, inAuthority = true, slices.Contains(strings.Fields(flags), "ra"), false, false
			continue
		}
		if strings.HasPrefix(l, ";; ANSWER SECTION:") || strings.HasPrefix(l, ";; AUTHORITY SECTION:") {
			inAnswer, inAuthority = strings.Contains(l, "ANSWER"), strings.Contains(l, "AUTHORITY")
			continue
		}
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, ";") {
			inAnswer, inAuthority = false, false
			continue
		}
		f := strings.Fields(l)
		if inAuthority {
			negative = negative || slices.Contains(f, "SOA")
			continue
		}
		if !inAnswer && flagged {
			continue
		}
		owners[strings.ToLower(strings.TrimSuffix(f[0], "."))] = true
		j := 1
		if j < len(f) && strings.Trim(f[j], "0123456789") == "" {
			j++ // the TTL
		}
		if j < len(f) && slices.Contains([]string{"IN", "CH", "HS"}, f[j]) {
			j++
		}
		if j+1 < len(f) && f[j] == "CNAME" {
			aliases = append(aliases, [2]string{l, strings.ToLower(strings.TrimSuffix(f[j+1], "."))})
		}
	}
	return end()
}

// shortNamedTypes are the types whose records dig +short prints as
// something other than a bare name ending in a dot, so such a line in
// their answer is an alias's target.
var shortNamedTypes = []string{"A", "AAAA", "CAA", "HTTPS", "SPF", "SSHFP", "SVCB", "TLSA", "TXT"}

// AliasUnfollowedShort is the last line of dig +short's output when it
// is an alias's target with no record after it, "" otherwise: +short
// prints an alias as its target's name, then the records, and a name
// alone at the end is an alias no one followed (or whose target has none;
// +short does not say which). qtype is the type asked; only a type whose
// records are never a bare name (TXT, A, …) is read.
func AliasUnfollowedShort(stdout, qtype string) string {
	if !slices.Contains(shortNamedTypes, qtype) {
		return ""
	}
	last := strings.TrimSpace(stdout)
	if i := strings.LastIndexByte(last, '\n'); i >= 0 {
		last = strings.TrimSpace(last[i+1:])
	}
	if strings.ContainsAny(last, " \t") || !strings.HasSuffix(last, ".") || strings.HasPrefix(last, ";") {
		return ""
	}
	return last
}

// hostAlias is host's line for an alias, `NAME is an alias for TARGET.`,
// and nslookup's, `NAME<tab>canonical name = TARGET.`
var hostAlias = regexp.MustCompile(`^(\S+)(?: is an alias for |\s+canonical name = )(\S+?)\.?$`)

// HostAliasUnfollowed is host's (or nslookup's) line for an alias after
// which it printed nothing of the target (no `TARGET descriptive text …`, no `TARGET has
// no TXT record`), "" when there is none: host asked of a server that
// does not recurse prints the alias alone when the target is in a zone
// the server does not serve, exit 0, and when it is in the server's zone
// with no such record: the records may be at the target nobody asked.
// nslookup prints `canonical name =` alone alike.
func HostAliasUnfollowed(stdout string) string {
	lines := strings.Split(stdout, "\n")
	for i, l := range lines {
		m := hostAlias.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil {
			continue
		}
		target := strings.ToLower(m[2])
		if !slices.ContainsFunc(lines[i+1:], func(o string) bool {
			rest, ok := strings.CutPrefix(strings.ToLower(o), target)
			return ok && (strings.HasPrefix(rest, " ") || strings.HasPrefix(rest, "\t"))
		}) {
			return l
		}
	}
	return ""
}

// AliasUnfollowedEntry is the ledger's entry for such a stage, filed
// under its path: exit is the exit code, word the answer the chart
// declared for it ("" when none), line the alias (masked already), why
// what left it unfollowed (AliasUnfollowed).
func AliasUnfollowedEntry(path string, exit int, word, line, why string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: "its answer",
			Why: fmt.Sprintf("its answer ends at an alias, %s, %s, so the records asked for may be at the alias's target, which nobody asked: none found is no answer of none; the alias: %q; ask the target's server, or a resolver that recurses (dig +noall +comments +answer, whose flags say ra), and judge that",
				why, exitedThough(exit, word), cutLine(line)),
			Kind: ItemAliasUnfollowed,
		}},
	}}
}

package chart

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
)

// DigShortSilence is the note for an exec that runs dig with a display
// that prints no status ("" when it does not): +short, or +noall (or
// +nocomments) with no +comments after it, and no +yaml. dig exits 0
// over a SERVFAIL and a REFUSED as over an answer, and such a display
// prints nothing for them, as for a name that does not exist (NXDOMAIN)
// or has no such record, so an empty output says none of those apart and
// a rule over it reads a server that failed as no record: `dig +noall
// +answer SEL._domainkey.DOMAIN TXT`, an admin's way to print the records
// alone, said an old DKIM selector removed, OK, Consistent, of a server
// that refused the zone (cmd/runbook TestDigAnswerAloneSilenceIsNoAnswer).
// Its status is in dig's header, which a run reads
// (record.ItemNoDNSAnswer). A command line or a command of a shell:
// script is noted (digStatusUnprinted).
//
//	[dig, +short, example.test, MX]              noted
//	shell: dig +short "$N" TXT | tr -d '"'        noted
//	[dig, +noall, +answer, NAME, TXT]            noted
//	[dig, +noall, +comments, +answer, NAME, MX]  not noted
//	[dig, +noall, +answer, +yaml, NAME, MX]      not noted
func (e *ExecSpec) DigShortSilence() string {
	switch e.DigStatusUnprinted() {
	case "":
		return ""
	case "+short":
		return "it runs dig +short, which prints nothing and exits 0 over a SERVFAIL or a REFUSED as over a name with no such record, so an empty output is no answer of none; run dig without +short (dig +noall +comments +answer NAME TYPE), whose header says the status (NOERROR, NXDOMAIN, SERVFAIL), judge that status, and a run says where the server gave no answer"
	default:
		return "it runs dig with " + e.DigStatusUnprinted() + " and no +comments after it, so dig prints no header, and then nothing at all, exit 0, over a SERVFAIL or a REFUSED as over a name with no such record: an empty output is no answer of none; add +comments (dig +noall +comments +answer NAME TYPE), whose header says the status (NOERROR, NXDOMAIN, SERVFAIL), judge that status, and a run says where the server gave no answer"
	}
}

// DigStatusUnprinted is the option of the first dig the exec runs (its
// command, or a command of its shell: script) that leaves dig's output
// with no status line (digStatusUnprinted), "" when none does.
func (e *ExecSpec) DigStatusUnprinted() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if filepath.Base(argv[0]) != "dig" {
			return ""
		}
		return digStatusUnprinted(argv[1:])
	})
}

// digStatusUnprinted is the option of dig's arguments that leaves its
// output with no status line, "" when the status is printed: "+short"
// (which prints the records alone whatever follows it), or "+noall" or
// "+nocomments" when no +all or +comments comes after it (dig applies its
// options in order, and takes any unique start of one: +nocomm, +comm)
// and no +yaml, which prints `status:` whatever the rest says. A word
// not known here ("" from a shell's $VAR) is no option.
func digStatusUnprinted(args []string) string {
	off, yaml := "", false
	for _, a := range args {
		o, ok := strings.CutPrefix(a, "+")
		if !ok {
			continue
		}
		o, _, _ = strings.Cut(o, "=")
		switch {
		case o == "short":
			return "+short"
		case o == "yaml":
			yaml = true
		case o == "noall":
			off = a
		case o == "all":
			off = ""
		case len(o) >= 6 && strings.HasPrefix("nocomments", o):
			off = a
		case len(o) >= 4 && strings.HasPrefix("comments", o):
			off = ""
		}
	}
	if yaml {
		return ""
	}
	return off
}

// getentHostDBs are getent's databases that resolve a host name through
// NSS, DNS among its sources.
var getentHostDBs = []string{"hosts", "ahosts", "ahostsv4", "ahostsv6"}

// getentShadowDBs are getent's databases a user outside the shadow group
// may not read.
var getentShadowDBs = []string{"shadow", "gshadow"}

// GetentNotFoundIsNoAnswer is the note for an exec whose command is getent
// over a host database and whose exit 2 the chart declares an answer
// ("" otherwise): getent exits 2, printing nothing, when the name was not
// found and as much when no name server answered (down, timed out, a
// SERVFAIL: glibc's TRY_AGAIN), so the word for 2 would be said of a
// resolver that gave no answer. A network namespace whose resolv.conf
// names a server that is not there made `getent hosts www.example.org`
// exit 2, as for a name that does not exist.
//
// The shadow databases are the same: `getent shadow alice` run by a user
// who may not read /etc/shadow (0640 root:shadow) exits 2, printing
// nothing, as for an account with no entry, so a check that every
// account has a shadow entry, `{0: has-entry, 2: no-entry}`, said
// no-entry of every account when a monitoring user ran it, and of none
// it could not read (TestGetentShadowCodeIsNoted).
//
//	[getent, ahosts, ${name}] with {0: found, 2: missing}   noted
//	[getent, shadow, ${u}] with {0: found, 2: missing}      noted
//	[getent, passwd, alice] with {0: found, 2: missing}     not noted
func (e *ExecSpec) GetentNotFoundIsNoAnswer() string {
	if !e.commandIs("getent") || len(e.Command) < 2 {
		return ""
	}
	word, ok := e.ExitCodes[2]
	if !ok {
		return ""
	}
	if slices.Contains(getentShadowDBs, e.Command[1]) {
		return "its answer is getent's exit code, and getent exits 2, printing nothing, when the account has no entry and as much when the run may not read /etc/" + e.Command[1] + " (a user outside the shadow group), so exitCodes' word for 2 (\"" + word + "\") would be said of an entry nobody could read; run it as root, or test first that the file can be read (test -r /etc/" + e.Command[1] + ")"
	}
	if !slices.Contains(getentHostDBs, e.Command[1]) {
		return ""
	}
	return "its answer is getent's exit code, and getent exits 2, printing nothing, when the name does not exist and as much when no name server answered (down, timed out, SERVFAIL), so exitCodes' word for 2 (\"" + word + "\") would be said of a resolver that gave no answer; ask the server with host or dig, whose output says which (NXDOMAIN, or SERVFAIL and no server reached, which a run reads as no answer)"
}

// ResolverExitAnswer is the note for an exec whose command is host or
// nslookup and whose exit codes the chart declares answers ("" otherwise):
// both exit 0 when the name exists with no record of the type asked
// (host's `www.example.test has no MX record`, nslookup's `*** Can't find
// www.example.test: No answer`), and 1 over NXDOMAIN and SERVFAIL alike,
// so a word for 0 or 1 says nothing of the records: `host -t MX DOMAIN`
// under `exitCodes: {0: has-mx, 1: no-mx}` said has-mx, OK, of a domain
// with no MX record. A run reads SERVFAIL and no server reached as no
// answer (record.ItemNoDNSAnswer); NODATA is the chart's to read.
//
//	[host, -t, MX, ${domain}] with {0: has-mx, 1: no-mx}   noted
//	[host, -t, MX, ${domain}] with no exitCodes            not noted
func (e *ExecSpec) ResolverExitAnswer() string {
	if e == nil || len(e.Command) == 0 || len(e.ExitCodes) == 0 {
		return ""
	}
	tool := filepath.Base(e.Command[0])
	if tool != "host" && tool != "nslookup" {
		return ""
	}
	return "its answer is " + tool + "'s exit code, and " + tool + " exits 0 when the name exists with no record of the type asked (host's \"has no MX record\", nslookup's \"No answer\") and 1 over NXDOMAIN and SERVFAIL alike, so a word for its exit says nothing of the records; judge the lines it prints (\"has no MX record\", \"3(NXDOMAIN)\", \"mail is handled by\"), where a run reads SERVFAIL and no server reached as no answer"
}

// digTypes are the record types a dig argument names (upper case), the
// ones a chart asks of a mail or web domain and those that answer of the
// zone itself.
var digTypes = []string{"A", "AAAA", "ANY", "CAA", "CNAME", "DNAME", "DNSKEY", "DS", "HINFO", "HTTPS", "MX", "NAPTR", "NS", "NSEC", "NSEC3", "NSEC3PARAM", "PTR", "RRSIG", "SOA", "SPF", "SRV", "SSHFP", "SVCB", "TLSA", "TXT", "URI", "AXFR", "IXFR",
	// and every other type dig 9.18 knows by name, so none is read as a misspelling of one above
	"A6", "AFSDB", "AMTRELAY", "APL", "ATMA", "AVC", "CDNSKEY", "CDS", "CERT", "CSYNC", "DHCID", "DLV", "DOA", "EID", "EUI48", "EUI64", "GID", "GPOS", "HIP", "IPSECKEY", "ISDN", "KEY", "KX", "L32", "L64", "LOC", "LP", "MAILA", "MAILB", "MB", "MD", "MF", "MG", "MINFO", "MR", "NID", "NIMLOC", "NINFO", "NSAP", "NSAP-PTR", "NULL", "NXNAME", "NXT", "OPENPGPKEY", "OPT", "PX", "RESINFO", "RKEY", "RP", "RT", "SIG", "SINK", "SMIMEA", "TA", "TALINK", "TKEY", "TSIG", "UID", "UINFO", "UNSPEC", "WALLET", "WKS", "X25", "ZONEMD"}

// digClasses are the classes a dig argument names.
var digClasses = []string{"IN", "CH", "CHAOS", "HS", "HESIOD", "NONE"}

// DigMisspeltType is the argument of a dig command line (argv as
// written) that is no type dig knows but is near one, and the type it is
// near ("", "" when none is): dig reads a word it does not know as a type
// as a further name to ask, and asks the name before it for an A record,
// so `[dig, NAME, TXTT]` asked NAME's A records, none, and `TXTT.`, and a
// check that an old DKIM selector holds no TXT record read it removed.
// -t's value that is no type is one too, near one or not: dig says on
// stderr it ignores it (`;; Warning, ignoring invalid type TXTT`), exit 0,
// and asks for an A record. Only a word after the name is read so (`dig db` asks a container's
// service db, no misspelt DS); a word with a dot or a template is a name,
// and a type's number (TYPE65) a type.
func DigMisspeltType(argv []string) (word, near string) {
	if len(argv) == 0 || filepath.Base(argv[0]) != "dig" {
		return "", ""
	}
	named := false // a name came before
	for i := 1; i < len(argv); i++ {
		a, up := argv[i], strings.ToUpper(argv[i])
		switch {
		case a == "-t" && i+1 < len(argv):
			i++
			v := strings.ToUpper(argv[i])
			if !strings.Contains(v, "$") && !slices.Contains(digTypes, v) && !strings.HasPrefix(v, "TYPE") {
				return argv[i], suggest.Nearest(v, digTypes)
			}
		case slices.Contains(digValued, a):
			i++
		case a == "" || strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@"):
		case slices.Contains(digTypes, up) || slices.Contains(digClasses, up) || strings.HasPrefix(up, "TYPE") || strings.HasPrefix(up, "CLASS"):
		case strings.ContainsAny(a, ".$:/") || !named:
			named = true
		default:
			if n := suggest.Nearest(up, digTypes); n != "" {
				return a, n
			}
		}
	}
	return "", ""
}

// DigTypeProblem is the place in argv (a dig command line, as written or
// as run) of an argument DigMisspeltType finds, and what is wrong with it
// (-1, "" when none is): the one wording of the load error over a type
// written in the chart and of the run's refusal of one a template
// rendered (`[dig, "${domain}", "${type}"]` given --input type=TXTT asked
// the domain's A records and read the selector removed).
func DigTypeProblem(argv []string) (int, string) {
	w, near := DigMisspeltType(argv)
	if w == "" {
		return -1, ""
	}
	i := slices.Index(argv, w)
	what := "dig asks it as a further name, and the name before it for an A record"
	if i > 0 && argv[i-1] == "-t" {
		what = "dig ignores it, saying so on stderr alone, and asks for an A record"
	}
	mean := "name a type dig knows (TXT, MX, A, …)"
	if near != "" {
		mean = "did you mean " + near + "?"
	}
	return i, fmt.Sprintf("is no record type dig knows, so %s: a rule reading the records would find none of the type meant; %s", what, mean)
}

// digValued are dig's options that take the next argument as their value.
var digValued = []string{"-b", "-c", "-f", "-k", "-p", "-q", "-t", "-x", "-y"}

// DigQueryType is the record type the first dig the exec runs asks for
// (upper case; dig's A when it names none, PTR under -x), and whether
// the exec runs dig at all. argv is the command as run (its templates
// filled), nil for a shell: script, whose words are read as written (a
// word bash would expand is no type).
func (e *ExecSpec) DigQueryType(argv []string) (string, bool) {
	typ := ""
	of := func(args []string) string {
		if len(args) == 0 || filepath.Base(args[0]) != "dig" {
			return ""
		}
		typ = "A"
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "-x":
				typ = "PTR"
				i++
			case a == "-t" && i+1 < len(args):
				typ = strings.ToUpper(args[i+1])
				i++
			case slices.Contains(digValued, a):
				i++
			case slices.Contains(digTypes, strings.ToUpper(a)):
				typ = strings.ToUpper(a)
			}
		}
		return typ
	}
	if len(argv) > 0 {
		of(argv)
	} else {
		e.noteOfEachCommand(of)
	}
	return typ, typ != ""
}

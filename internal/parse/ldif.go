package parse

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// parseLDIF is `ldif`: the entries of an LDIF text (RFC 2849), as
// ldapsearch prints them, a list of objects, one an entry:
//
//	dn: uid=ann,ou=people,dc=example,dc=org
//	objectClass: inetOrgPerson
//	objectClass: posixAccount
//	cn:: QW5uIMOYc3Rlcg==
//	 (a continuation)
//
// is {"dn": "uid=ann,…", "objectClass": ["inetOrgPerson", "posixAccount"],
// "cn": ["Ann Øster…"]}. Every attribute is a list of its values, in the
// order printed (an attribute may hold several, and a rule over one
// value must not depend on how many there are); the dn is a text. A
// value is a text as LDAP holds it: a number (uidNumber) is "1000", read
// with int().
//
// What lines and a regex over them read wrong, it reads whole: a line
// that begins with one space continues the line before (ldapsearch folds
// a value past 76 columns: `member: cn=admins,ou=groups,dc=exa` then
// ` mple,dc=org`), and a value after `::` is base64 (a value with a
// character outside ASCII, or that begins with a space or a colon:
// `member:: …` slipped past a filter over `member: `). A base64 value
// that is not UTF-8 text (a jpegPhoto, an objectGUID) is kept as its
// base64, under the attribute's name with ";base64" after it, so no
// byte of it is lost or read as text.
//
// Left out, as no entry: comments (`# extended LDIF`, `# numEntries: 2`),
// a `version:` line before the first entry, and the block ldapsearch
// ends with, `search: 2` / `result: 0 Success`, whose result is a problem
// when it is no success (`result: 4 Size limit exceeded`: the entries
// are not all there are). A problem, each counted on its line: a line that is no
// `name: value` (nor a continuation of one), a block with no `dn:` first,
// a value given by URL (`jpegPhoto:< file:///…`, which the parse does
// not fetch), base64 that does not decode. A blank text is no entry: an
// ldapsearch -LLL that found none prints nothing.
func parseLDIF(text string, r *recorder) any {
	out := []any{}
	var entry map[string]any
	block := 0 // logical lines read in the block so far
	skip := false
	trailer := false // in ldapsearch's closing block
	first := true    // before the first entry: version: may come
	for _, l := range ldifLines(text) {
		if l.text == "" { // a blank line ends the block
			entry, block, skip, trailer = nil, 0, false, false
			continue
		}
		if l.cont {
			r.problem(l.n, l.text, "a continuation (a line beginning with a space) with no line before it to continue")
			continue
		}
		if strings.HasPrefix(l.text, "#") {
			continue
		}
		block++
		if skip && !trailer {
			continue
		}
		name, value, why := ldifPair(l.text)
		if why != "" {
			r.problem(l.n, l.text, why)
			continue
		}
		if trailer {
			if v, _ := value.(string); strings.EqualFold(name, "result") && !strings.HasPrefix(v, "0 ") && v != "0" {
				r.problem(l.n, l.text, "ldapsearch's result says the search did not end in success: the entries above may not be all there are")
			}
			continue
		}
		if block == 1 {
			switch {
			case strings.EqualFold(name, "dn"):
				if s, ok := value.(string); ok {
					entry = map[string]any{"dn": s}
					out = append(out, entry)
					first = false
					continue
				}
				r.problem(l.n, l.text, "the entry's dn is not UTF-8 text")
				skip = true
			case first && strings.EqualFold(name, "version"):
				block = 0 // the LDIF's version, not an entry
			case strings.EqualFold(name, "search"):
				skip, trailer = true, true // ldapsearch's closing search: / result: block
			default:
				r.problem(l.n, l.text, "an entry that does not begin with its dn: line")
				skip = true
			}
			continue
		}
		if entry == nil {
			continue
		}
		if strings.EqualFold(name, "dn") {
			r.problem(l.n, l.text, "a second dn: in one entry (entries are separated by a blank line)")
			continue
		}
		if s, ok := value.(string); ok {
			vs, _ := entry[name].([]any)
			entry[name] = append(vs, s)
			continue
		}
		key := name + ";base64"
		vs, _ := entry[key].([]any)
		entry[key] = append(vs, value.(ldifBinary).b64)
	}
	return out
}

// ldifBinary is a base64 value that is not UTF-8 text, kept as given.
type ldifBinary struct{ b64 string }

// ldifPair reads one logical line, `name: value`, `name:: base64`; why
// says what is wrong with one that is neither. A base64 value that is
// not UTF-8 is an ldifBinary.
func ldifPair(line string) (name string, value any, why string) {
	i := strings.IndexByte(line, ':')
	if i <= 0 {
		return "", nil, "not an LDIF line (name: value)"
	}
	name, rest := line[:i], line[i+1:]
	if strings.ContainsAny(name, " \t") {
		return "", nil, "not an LDIF line (name: value): the name holds a blank"
	}
	switch {
	case strings.HasPrefix(rest, ":"):
		b64 := strings.TrimLeft(rest[1:], " ")
		b, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			return "", nil, "the base64 value of " + name + ":: does not decode (" + err.Error() + ")"
		}
		if !utf8.Valid(b) {
			return name, ldifBinary{b64}, ""
		}
		return name, string(b), ""
	case strings.HasPrefix(rest, "<"):
		return "", nil, "a value given by URL (" + name + ":<), which the parse does not fetch"
	}
	return name, strings.TrimLeft(rest, " "), ""
}

// ldifLine is one logical line of an LDIF text: its physical lines
// joined where a line beginning with one space continues the one before
// (that space removed); n is where it starts, 1-based. text is "" for a
// blank line; cont marks a continuation with no line before it.
type ldifLine struct {
	text string
	n    int
	cont bool
}

func ldifLines(text string) []ldifLine {
	var out []ldifLine
	for i, s := range lines(text) {
		switch {
		case strings.HasPrefix(s, " "):
			if len(out) == 0 || out[len(out)-1].text == "" {
				out = append(out, ldifLine{text: s, n: i + 1, cont: true})
				continue
			}
			out[len(out)-1].text += s[1:]
		case blank(s):
			out = append(out, ldifLine{n: i + 1})
		default:
			out = append(out, ldifLine{text: s, n: i + 1})
		}
	}
	return out
}

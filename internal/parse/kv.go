package parse

import (
	"fmt"
	"strings"
)

// kv is `kv`: an object from `key=value` or `key: value` lines.
//
//	sep      the separator; by default the first "=" or ":" of the line, whichever comes first;
//	         " " is any run of spaces and tabs after the line's indentation
//	trim     true (default): spaces around key and value are trimmed; false: nothing is;
//	         a string: spaces are trimmed and then those characters from both ends of the
//	         value (trim: "\"'" reads os-release's NAME="Ubuntu" as Ubuntu)
//	numbers  false keeps every value a string
//
// A line without the separator, with an empty key, or repeating a key
// (the first value is kept) is a problem, and so is one whose key is an
// earlier key in another case (sameKeyInAnotherCase); a line whose first non-space
// character is "#" is a comment and passed over. So is a line whose
// default separator would be a ":" inside a value, or one of two
// together, "::" (colonInValue).
type kv struct {
	sep     string
	trim    bool
	cutset  string
	numbers valuer
}

func newKV(o opts) (parser, error) {
	p := &kv{trim: true}
	var err error
	if p.numbers, err = o.valuer(); err != nil {
		return nil, err
	}
	sep, _, err := o.string("sep")
	if err != nil {
		return nil, err
	}
	if o.has("sep") && sep == "" {
		return nil, fmt.Errorf("parse mode kv: option sep is empty")
	}
	p.sep = sep
	switch t := o.m["trim"].(type) {
	case nil:
		if o.has("trim") {
			return nil, fmt.Errorf("parse mode kv: option trim is null, want true, false or the characters to trim")
		}
	case bool:
		p.trim = t
	case string:
		p.cutset = t
	default:
		return nil, fmt.Errorf("parse mode kv: option trim is %T, want true, false or the characters to trim", t)
	}
	return p, nil
}

func (p *kv) parse(text string, r *recorder) any {
	out := map[string]any{}
	if webPage(text, r) {
		return out
	}
	folded := map[string]string{} // each key in lower case → the key as written
	for i, s := range r.records(text) {
		if blank(s) || strings.HasPrefix(strings.TrimSpace(s), "#") {
			continue
		}
		k, v, ok := p.split(s)
		if !ok {
			r.problem(i+1, s, "no separator")
			continue
		}
		if why := p.colonInValue(s, k, v); why != "" {
			r.problem(i+1, s, why)
			continue
		}
		if p.trim {
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		}
		if p.cutset != "" {
			v = strings.Trim(v, p.cutset)
		}
		if strings.TrimSpace(k) == "" {
			r.problem(i+1, s, "empty key")
			continue
		}
		if _, dup := out[k]; dup {
			r.problem(i+1, s, fmt.Sprintf("key %q repeated (the first value is kept)", k))
			continue
		}
		if first := sameKeyInAnotherCase(folded, k); first != "" {
			r.problem(i+1, s, fmt.Sprintf("key %q is the key %q in another case, and a file whose tool reads its keys in any case (sshd_config) gives one key twice (the first value is kept, under %q)", k, first, first))
			continue
		}
		out[k] = p.numbers.of(v)
	}
	return out
}

// split cuts a line at its separator. A separator of one space is any
// run of spaces and tabs after the line's indentation, as sshd_config's
// "keywords and arguments are separated by whitespace" reads it: a line
// `PermitRootLogin<TAB>yes` was "no separator" and a line indented under a
// Match block "empty key", so an sshd audit read with sep: " " stood Not
// sure over a file it could read (TestKVSpaceSeparatorIsAnyBlank).
func (p *kv) split(s string) (string, string, bool) {
	if p.sep == " " {
		s = strings.TrimLeft(s, " \t")
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return "", "", false
		}
		return s[:i], s[i+1:], true
	}
	if p.sep != "" {
		return strings.Cut(s, p.sep)
	}
	i := strings.IndexAny(s, "=:")
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// colonInValue says why a line's default separator, a ":", is no
// separator: the key before it holds a space and the value is glued to it
// (`nameserver 2001:4860::8888`, `server 10.0.0.1:53`, `proxy http://h`),
// where a `key: value` line has a space after the colon and a `key:value`
// line no space in its key. /etc/resolv.conf's IPv6 nameserver was read
// as the key "nameserver 2001", and a chart found no nameserver,
// Consistent (TestKVColonInsideAValueIsAProblem). "" when the ":" is one,
// or the separator was given (sep:) or is an "=".
//
// Nor is a ":" with a second one right after it, "::": /proc/PID/cgroup's
// cgroup v2 line `0::/system.slice/nginx.service` (hierarchy-ID,
// controllers, path) was read as the key "0" and the value
// ":/system.slice/nginx.service", and a check that a process is not left
// in the root cgroup, `cg.content["0"] == "/"`, read ":/" as confined, OK,
// Consistent (TestKVColonRecordIsAProblem). `listen: ::1` has a space
// between and is read.
func (p *kv) colonInValue(s, k, v string) string {
	if p.sep != "" || len(s) == len(k) || s[len(k)] != ':' || v == "" || v[0] == ' ' || v[0] == '\t' {
		return ""
	}
	key := strings.TrimSpace(k)
	if !strings.ContainsAny(key, " \t") {
		if v[0] == ':' {
			return fmt.Sprintf(`the first ":" is one of two together, "::", so the line is no key: value (it would make the key %q and the value %q): a line of fields split by ":" (/proc/PID/cgroup's hierarchy-ID:controllers:path) is read with a pattern (parse: {as: regex, pattern: '^(?P<id>\d+):(?P<controllers>[^:]*):(?P<path>.*)$'})`, strings.TrimSpace(k), strings.TrimSpace(v))
		}
		return ""
	}
	return fmt.Sprintf(`the first ":" is inside a value (it would make the key %q, which holds a space, and the value %q): give the separator (sep: " ") or read the lines (parse: lines)`, key, strings.TrimSpace(v))
}

// sameKeyInAnotherCase is the key read before that k is in another case
// ("PermitRootLogin" for "permitrootlogin"), "" when none is; folded
// holds each key read, in lower case, and takes k's. sshd reads its
// keywords in any case and keeps the first, so a sshd_config giving
// `permitrootlogin yes` and later `PermitRootLogin no` lets root in, and
// read as two keys a chart asking for PermitRootLogin saw "no" and said
// root could not log in, Consistent (TestKVKeyInAnotherCaseIsAProblem).
func sameKeyInAnotherCase(folded map[string]string, k string) string {
	low := strings.ToLower(k)
	if first, ok := folded[low]; ok && first != k {
		return first
	}
	folded[low] = k
	return ""
}

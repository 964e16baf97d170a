package parse

import (
	"fmt"
	"strings"
)

// kv is `kv`: an object from `key=value` or `key: value` lines.
//
//	sep      the separator; by default the first "=" or ":" of the line, whichever comes first
//	trim     true (default): spaces around key and value are trimmed; false: nothing is;
//	         a string: spaces are trimmed and then those characters from both ends of the
//	         value (trim: "\"'" reads os-release's NAME="Ubuntu" as Ubuntu)
//	numbers  false keeps every value a string
//
// A line without the separator, with an empty key, or repeating a key
// (the first value is kept) is a problem; a line whose first non-space
// character is "#" is a comment and passed over.
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
	for i, s := range lines(text) {
		if blank(s) || strings.HasPrefix(strings.TrimSpace(s), "#") {
			continue
		}
		k, v, ok := p.split(s)
		if !ok {
			r.problem(i+1, s, "no separator")
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
		out[k] = p.numbers.of(v)
	}
	return out
}

func (p *kv) split(s string) (string, string, bool) {
	if p.sep != "" {
		return strings.Cut(s, p.sep)
	}
	i := strings.IndexAny(s, "=:")
	if i < 0 {
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

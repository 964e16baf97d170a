package parse

import (
	"fmt"
	"regexp"
)

// re is `regex`: a list of objects, one per line the pattern (RE2, see
// regexp/syntax) matches, keyed by its named groups. A group that took no
// part in the match is absent; unnamed groups are not keys.
//
//	pattern  the RE2 pattern, with at least one named group (?P<name>…) or (?<name>…)
//	numbers  false keeps every value a string
//
// A non-blank line the pattern does not match is a problem.
type re struct {
	rx      *regexp.Regexp
	numbers valuer
}

func newRegex(o opts) (parser, error) {
	pat, ok, err := o.string("pattern")
	if err != nil {
		return nil, err
	}
	if !ok || pat == "" {
		return nil, fmt.Errorf("parse mode regex needs pattern: an RE2 pattern with named groups, such as '(?P<key>\\w+)=(?P<value>.*)'")
	}
	rx, err := regexp.Compile(pat)
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
	return p, nil
}

func (p *re) parse(text string, r *recorder) any {
	out := []any{}
	names := p.rx.SubexpNames()
	for i, s := range lines(text) {
		if blank(s) {
			continue
		}
		m := p.rx.FindStringSubmatchIndex(s)
		if m == nil {
			r.problem(i+1, s, "the pattern does not match")
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

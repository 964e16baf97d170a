package flow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/suggest"
)

// splitKey splits `verdicts[3].verdict` into the scope key and the path
// into its value. The longest prefix that is a key of state wins (keys may
// hold dots); a key not in state is taken up to the first '.' or '['.
func splitKey(q string, state map[string]any) (string, []any, error) {
	if q == "" {
		return "", nil, fmt.Errorf("explain: empty key")
	}
	if _, ok := state[q]; ok {
		return q, nil, nil
	}
	cut := -1
	for i := len(q) - 1; i > 0; i-- {
		if q[i] == '.' || q[i] == '[' {
			if _, ok := state[q[:i]]; ok {
				cut = i
				break
			}
		}
	}
	if cut < 0 {
		cut = strings.IndexAny(q, ".[")
		if cut < 0 {
			return q, nil, nil
		}
	}
	path, err := parsePath(q[cut:])
	if err != nil {
		return "", nil, fmt.Errorf("explain: key %q: %w", q, err)
	}
	return q[:cut], path, nil
}

// parsePath reads `.a[3].b` into ["a", 3, "b"].
func parsePath(s string) ([]any, error) {
	var out []any
	for s != "" {
		switch s[0] {
		case '.':
			end := strings.IndexAny(s[1:], ".[")
			if end < 0 {
				end = len(s) - 1
			}
			name := s[1 : 1+end]
			if name == "" {
				return nil, fmt.Errorf("an empty name after '.'")
			}
			out = append(out, name)
			s = s[1+end:]
		case '[':
			end := strings.IndexByte(s, ']')
			if end < 0 {
				return nil, fmt.Errorf("'[' without ']'")
			}
			inner := s[1:end]
			if n, err := strconv.Atoi(inner); err == nil {
				out = append(out, n)
			} else if uq, err := strconv.Unquote(inner); err == nil {
				out = append(out, uq)
			} else {
				return nil, fmt.Errorf("[%s]: want a list index or a quoted name", inner)
			}
			s = s[end+1:]
		default:
			return nil, fmt.Errorf("unexpected %q", s)
		}
	}
	return out, nil
}

func pathString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch t := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", t)
		default:
			fmt.Fprintf(&b, ".%v", t)
		}
	}
	return b.String()
}

// pathHint says what v has where path first leaves it: the nearest member
// of the object there ("; did you mean \"stdout\"?"), or the length of
// the list ("; verdicts has 1 item"); "" when it can say neither. root
// names v.
func pathHint(root string, v any, path []any) string {
	at := root
	for _, p := range path {
		switch k := p.(type) {
		case int:
			l, ok := v.([]any)
			if !ok {
				return ""
			}
			if k < 0 || k >= len(l) {
				items := "items"
				if len(l) == 1 {
					items = "item"
				}
				return fmt.Sprintf("; %s has %d %s", at, len(l), items)
			}
			v = l[k]
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return ""
			}
			next, ok := m[k]
			if !ok {
				keys := make([]string, 0, len(m))
				for name := range m {
					keys = append(keys, name)
				}
				slices.Sort(keys)
				if near := suggest.Nearest(k, keys); near != "" {
					return fmt.Sprintf("; did you mean %q?", near)
				}
				return ""
			}
			v = next
		}
		at += pathString([]any{p})
	}
	return ""
}

// writtenInBranches says where key was written in scopes of their own —
// a foreach item's, a branch's — up to commit at, when the chart's state
// never held it, and what to ask instead: "" when no branch wrote it.
// Before, a key every foreach item wrote was "never written".
func (e *Explainer) writtenInBranches(key string, at int) string {
	var paths []string
	var first *Commit
	n := 0
	for i := 0; i <= at && i < len(e.cs); i++ {
		c := &e.cs[i]
		if c.Discarded || len(c.Scope) == 0 || writeOf(c, key) == nil {
			continue
		}
		if first == nil {
			first = c
		}
		n++
		if len(paths) < 3 {
			paths = append(paths, c.Path)
		}
	}
	if first == nil {
		return ""
	}
	list := strings.Join(paths, ", ")
	if n > len(paths) {
		list += ", …"
	}
	stage, _, _ := strings.Cut(first.Path, "#")
	ask := fmt.Sprintf("ask for one of them as a stage path (%s)", stage)
	if step := first.Scope[0]; step.Item != nil {
		if into := e.intoOf(step.Node, at); into != "" {
			ask += fmt.Sprintf(", or for what the foreach gathered of it (%s[%d].%s)", into, *step.Item, key)
		}
	}
	places := "1 place"
	if n > 1 {
		places = fmt.Sprintf("%d places", n)
	}
	return fmt.Sprintf("it was written only inside branches, which keep their own scope, in %s (%s); %s", places, list, ask)
}

// intoOf is the key the top-level foreach node wrote its items' scopes
// into, as of commit at: its commit's one write that is not a gathered
// key (verdicts); "" when none is found.
func (e *Explainer) intoOf(node string, at int) string {
	for i := min(at, len(e.cs)-1); i >= 0; i-- {
		c := &e.cs[i]
		if len(c.Scope) != 0 || c.Stage != node {
			continue
		}
		for _, w := range c.Writes {
			if !slices.Contains(e.gather, w.Key) {
				return w.Key
			}
		}
		return ""
	}
	return ""
}

// rootHint is "; did you mean \"units\"?" for a root key nothing wrote,
// over the state's keys and the run's inputs.
func rootHint(root string, state map[string]any, inputs map[string]any) string {
	keys := make([]string, 0, len(state)+len(inputs))
	for k := range state {
		keys = append(keys, k)
	}
	for k := range inputs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if near := suggest.Nearest(root, slices.Compact(keys)); near != "" {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return ""
}

// valueAt follows path into v. Maps may be map[string]any or carry their
// keys in another form (a verdict row): anything with an index method is
// not known here, so only plain JSON shapes are followed.
func valueAt(v any, path []any) (any, bool) {
	for _, p := range path {
		switch k := p.(type) {
		case int:
			l, ok := v.([]any)
			if !ok || k < 0 || k >= len(l) {
				return nil, false
			}
			v = l[k]
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[k]; !ok {
				return nil, false
			}
		}
	}
	return v, true
}

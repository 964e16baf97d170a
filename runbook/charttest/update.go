package charttest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/openrunbook/runbook/record"
)

// Update is the test file's text with each run case's expect rewritten
// from what its run produced (--update): status, verdicts (the rows shown,
// every key), standing and reasons, and exit, rowsTotal, line and nagios
// where the case already expects them. Every other line stays as written, comments
// and order included: a key already in expect is rewritten in its place, a
// new one goes after the others, and a case with no expect gets one. The
// diff is the review.
//
// The rewrite splices lines (the YAML is never re-printed), so a comment
// inside a rewritten key's value is lost; one above the key stays.
func (f *File) Update(res *FileResult) []byte {
	lines := strings.SplitAfter(string(f.src), "\n")
	if !strings.HasSuffix(lines[len(lines)-1], "\n") && lines[len(lines)-1] != "" {
		lines[len(lines)-1] += "\n"
	}
	cases := append([]*CaseResult(nil), res.Cases...)
	// Bottom up: a splice never moves the lines of a case above it.
	sort.Slice(cases, func(i, j int) bool { return cases[i].Case.Pos.Line > cases[j].Case.Pos.Line })
	for _, cr := range cases {
		if cr.Record == nil {
			continue // the run did not start: nothing to write
		}
		lines = updateCase(lines, cr)
	}
	return []byte(strings.Join(lines, ""))
}

// updateKeys are the keys --update writes, in the order a new one is added.
var updateKeys = []string{"status", "exit", "verdicts", "rowsTotal", "unjudgedRows", "standing", "reasons", "line", "nagios"}

// produced is what a case's run says for each key --update writes; always
// is the keys written whether or not expect had them.
func produced(cr *CaseResult) (vals map[string]string, always map[string]bool) {
	rec := cr.Record
	vals = map[string]string{
		"status": yamlScalar(rec.Status),
		"exit":   strconv.Itoa(cr.Exit),
		"nagios": cr.Nagios,
	}
	always = map[string]bool{"status": true}
	if rec.Verdicts != nil {
		var b strings.Builder
		for _, row := range rowsOf(rec) {
			b.WriteString("\n- ")
			b.WriteString(yamlRow(row))
		}
		vals["verdicts"] = b.String()
		if b.Len() == 0 {
			vals["verdicts"] = "[]"
		}
		vals["rowsTotal"] = strconv.Itoa(rec.Verdicts.RowsTotal)
		vals["unjudgedRows"] = yamlFlow(anyList(unjudgedRowsOf(rec)))
		// A row a case pins whose word is no answer of it says so.
		always["verdicts"], always["unjudgedRows"] = true, len(rec.Verdicts.UnjudgedRows) > 0
	}
	if rec.Assessment != nil {
		vals["standing"] = yamlScalar(string(rec.Assessment.Standing))
		vals["reasons"] = yamlFlow(anyList(reasonsOf(rec)))
		vals["line"] = yamlScalar(rec.Assessment.Line)
		always["standing"], always["reasons"] = true, true
	}
	return vals, always
}

// render is `key: value` at indent; a value beginning with a newline is a
// block list, its lines indented two more.
func render(key, val string, indent int) []string {
	pad := strings.Repeat(" ", indent)
	if !strings.HasPrefix(val, "\n") {
		return []string{pad + key + ": " + val + "\n"}
	}
	out := []string{pad + key + ":\n"}
	for _, l := range strings.Split(val[1:], "\n") {
		out = append(out, pad+"  "+l+"\n")
	}
	return out
}

var subKey = regexp.MustCompile(`^(\s*)([A-Za-z][A-Za-z0-9]*)\s*:`)

func updateCase(lines []string, cr *CaseResult) []string {
	c := cr.Case
	vals, always := produced(cr)
	if c.expectKey.Line == 0 {
		// No expect: one goes after the case's last key.
		indent := c.keyCol - 1
		end := blockEnd(lines, c.Pos.Line-1, indent-1)
		var add []string
		add = append(add, strings.Repeat(" ", indent)+"expect:\n")
		for _, k := range updateKeys {
			if always[k] {
				add = append(add, render(k, vals[k], indent+2)...)
			}
		}
		return splice(lines, end, end, add)
	}
	at := c.expectKey.Line - 1
	indent := c.expectKey.Col - 1
	end := blockEnd(lines, at, indent)
	rest := strings.TrimSpace(lines[at][strings.Index(lines[at], ":")+1:])
	if rest != "" && !strings.HasPrefix(rest, "#") {
		// Written inline (`expect: {status: completed}`): written anew as a
		// block, the keys --update does not write kept from what was read.
		add := []string{strings.Repeat(" ", indent) + "expect:\n"}
		for _, k := range expectKeys {
			_, had := c.Expect.At[k]
			switch {
			case contains(updateKeys, k) && (always[k] || had):
				if v, ok := vals[k]; ok {
					add = append(add, render(k, v, indent+2)...)
				}
			case had:
				add = append(add, render(k, yamlFlow(oldValue(c.Expect, k)), indent+2)...)
			}
		}
		return splice(lines, at, end, add)
	}
	// A block: each key's lines, found by their indentation.
	type keyed struct {
		key        string
		start, end int // lines of the key and its value, trailing comments left out
	}
	var keys []keyed
	sub := -1
	for i := at + 1; i < end; i++ {
		if blank(lines[i]) {
			continue
		}
		ind := indentOf(lines[i])
		if sub < 0 {
			sub = ind
		}
		if m := subKey.FindStringSubmatch(lines[i]); m != nil && len(m[1]) == sub {
			keys = append(keys, keyed{key: m[2], start: i})
		}
	}
	for i := range keys {
		e := end
		if i+1 < len(keys) {
			e = keys[i+1].start
		}
		for e > keys[i].start+1 && blank(lines[e-1]) {
			e--
		}
		keys[i].end = e
	}
	if sub < 0 {
		sub = indent + 2
	}
	out := append([]string(nil), lines[:at+1]...)
	prev := at + 1
	have := map[string]bool{}
	for _, k := range keys {
		out = append(out, lines[prev:k.start]...)
		have[k.key] = true
		if v, ok := vals[k.key]; ok && contains(updateKeys, k.key) {
			out = append(out, render(k.key, v, sub)...)
		} else {
			out = append(out, lines[k.start:k.end]...)
		}
		prev = k.end
	}
	lastKeyEnd := prev
	if len(keys) == 0 {
		lastKeyEnd = at + 1
	}
	out = append(out, lines[prev:lastKeyEnd]...)
	for _, k := range updateKeys {
		if always[k] && !have[k] {
			out = append(out, render(k, vals[k], sub)...)
		}
	}
	out = append(out, lines[lastKeyEnd:]...)
	return out
}

// blockEnd is the first line after at that holds something at indent or
// less (or the end), with the blank and comment lines before it left out:
// where the value of a key written at indent ends.
func blockEnd(lines []string, at, indent int) int {
	e := len(lines)
	for i := at + 1; i < len(lines); i++ {
		if !blank(lines[i]) && indentOf(lines[i]) <= indent {
			e = i
			break
		}
	}
	for e > at+1 && blank(lines[e-1]) {
		e--
	}
	return e
}

func splice(lines []string, from, to int, with []string) []string {
	out := append([]string(nil), lines[:from]...)
	out = append(out, with...)
	return append(out, lines[to:]...)
}

// blank: a line with nothing but spaces or a comment.
func blank(l string) bool {
	t := strings.TrimSpace(l)
	return t == "" || strings.HasPrefix(t, "#")
}

func indentOf(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

func oldValue(e Expect, k string) any {
	switch k {
	case "failOn":
		return anyList(e.FailOn)
	case "decisions":
		m := map[string]any{}
		for p, c := range e.Decisions {
			m[p] = anyList(c)
		}
		return m
	case "coverage":
		l := make([]any, len(e.Coverage))
		for i, c := range e.Coverage {
			l[i] = c
		}
		return l
	case "state":
		return e.State
	case "unjudgedRows":
		return anyList(e.UnjudgedRows)
	}
	return nil
}

func anyList(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// yamlRow is a verdict row in flow style, its keys in order.
func yamlRow(r record.Row) string {
	parts := make([]string, len(r.Keys))
	for i, k := range r.Keys {
		parts[i] = yamlScalar(k) + ": " + yamlFlow(r.Values[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// yamlFlow is a value in YAML flow style (maps by sorted key).
func yamlFlow(v any) string {
	switch t := v.(type) {
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = yamlFlow(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		parts := make([]string, 0, len(t))
		for _, k := range sortedKeys(t) {
			parts = append(parts, yamlScalar(k)+": "+yamlFlow(t[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return yamlScalar(v)
}

var plain = regexp.MustCompile(`^[A-Za-z0-9/_.][A-Za-z0-9/_.%+@()~-]*( [A-Za-z0-9/_.%+@()~-]+)*$`)

// yamlScalar writes a scalar plain where YAML reads it back as the same
// string in flow context, else double-quoted (JSON's quoting is YAML's).
func yamlScalar(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case int:
		return strconv.Itoa(t)
	case string:
		if plain.MatchString(t) && !special(t) {
			return t
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// special: a plain word a YAML reader would read as something other than
// the string: YAML 1.1's booleans (other readers of the file still take
// them so), and whatever the reader runbook test uses does not read back
// as itself in flow context (numbers, .inf, .NaN, 0b101, a timestamp) —
// asked of the reader, not listed, so no spelling is missed.
func special(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "yes", "no", "on", "off", "null", "y", "n":
		return true
	}
	var got []any
	if err := yaml.Unmarshal([]byte("["+s+"]"), &got); err != nil || len(got) != 1 {
		return true
	}
	str, ok := got[0].(string)
	return !ok || str != s
}

package parse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// parseNagios is `nagios`: a plugin's output, read per the Nagios plugin
// API (nagios-plugins.org/doc/guidelines.html#AEN200):
//
//	TEXT OUTPUT | PERFDATA
//	LONG TEXT LINE 1
//	LONG TEXT LINE 2 | PERFDATA
//	PERFDATA
//
// becomes {status: "TEXT OUTPUT", text: ["LONG TEXT LINE 1", "LONG TEXT
// LINE 2"], perfdata: [...]}: status is the first line's text (absent
// when empty), text the long lines up to the one holding the second "|",
// and every line after that perfdata. A perfdata item is
// 'label'=value[uom];[warn];[crit];[min];[max]:
//
//	label      quoted with ' when it holds spaces or '=', a ' in it written ''
//	value      a number, or "U" alone (the plugin could not tell) kept as the string "U"
//	uom        the unit after the value (s, ms, %, B, KB, c…)
//	warn,crit  a number when a plain number, else the range as written (10:20, @~:5)
//	min,max    numbers
//
// An empty field is absent. An item that breaks this is a problem (the
// item, not its line, is dropped; a line's problems count as one line, as
// Result.Problems counts lines); a line with nothing but such items adds
// nothing else. An output with nothing in it but blanks is a problem too:
// the status line is the one output the API requires.
//
//	'/mnt/my disk'=100B;;;0;1000   {label: "/mnt/my disk", value: 100, uom: B, min: 0, max: 1000}
//	load1=0.5;5:;10:               {label: load1, value: 0.5, warn: "5:", crit: "10:"}
func parseNagios(text string, r *recorder) any {
	out := map[string]any{}
	long := []any{}
	perf := []any{}
	inPerf := false
	for i, s := range lines(text) {
		switch {
		case i == 0:
			head, data, has := strings.Cut(s, "|")
			if head = strings.TrimSpace(head); head != "" {
				out["status"] = head
			}
			if has {
				perf = perfdata(data, i+1, perf, r)
			}
		case inPerf:
			perf = perfdata(s, i+1, perf, r)
		default:
			t, data, has := strings.Cut(s, "|")
			if has {
				inPerf = true
				perf = perfdata(data, i+1, perf, r)
				if blank(t) {
					continue
				}
			}
			if !has && blank(s) {
				continue
			}
			long = append(long, strings.TrimRight(t, " \t"))
		}
	}
	if blank(text) {
		// The status line is the one output the plugin API requires: a
		// plugin that printed nothing (a wrapper that never ran it, its
		// output sent elsewhere) said nothing its exit code stands on.
		r.problem(1, text, "no status line: the plugin printed nothing (the plugin API requires one)")
	}
	out["text"] = long
	out["perfdata"] = perf
	return out
}

// perfdata appends the items of s to perf, counting each it cannot read.
func perfdata(s string, line int, perf []any, r *recorder) []any {
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return perf
		}
		item, text, rest, err := perfItem(s)
		if err != "" {
			r.problem(line, strings.TrimSpace(text), "perfdata "+err)
		} else {
			perf = append(perf, item)
		}
		s = rest
	}
}

// perfItem reads one perfdata item from the start of s: the item, its
// text, what follows it, and what is wrong ("" if nothing).
func perfItem(s string) (map[string]any, string, string, string) {
	var label string
	i := 0
	if s[0] == '\'' {
		var b strings.Builder
		i = 1
		closed := false
		for i < len(s) {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte('\'')
					i += 2
					continue
				}
				i++
				closed = true
				break
			}
			b.WriteByte(s[i])
			i++
		}
		if !closed {
			return nil, s, "", "label has no closing quote"
		}
		label = b.String()
		if i >= len(s) || s[i] != '=' {
			text, rest := word(s, i)
			return nil, text, rest, "item has no '=' after its quoted label"
		}
	} else {
		j := strings.IndexAny(s, "= \t")
		if j < 0 || s[j] != '=' {
			text, rest := word(s, 0)
			return nil, text, rest, "item has no '='"
		}
		label, i = s[:j], j
	}
	text, rest := word(s, i)
	if label == "" {
		return nil, text, rest, "item has an empty label"
	}
	data := text[i+1:]
	f := strings.Split(data, ";")
	if len(f) > 5 {
		return nil, text, rest, "item has more than 5 fields"
	}
	obj := map[string]any{"label": label}
	m := valueUOM.FindStringSubmatch(f[0])
	if m == nil {
		return nil, text, rest, fmt.Sprintf("value %q is not a number with a unit", f[0])
	}
	if m[1] == "U" {
		if m[2] != "" {
			// U is a literal on its own; "Up" or "Unknown" is no value.
			return nil, text, rest, fmt.Sprintf("value %q is not a number with a unit, nor U alone", f[0])
		}
		obj["value"] = "U"
	} else {
		n, ok := perfNumber(m[1])
		if !ok {
			return nil, text, rest, fmt.Sprintf("value %q is not a number", m[1])
		}
		obj["value"] = n
	}
	if m[2] != "" {
		obj["uom"] = m[2]
	}
	for k, name := range []string{"", "warn", "crit", "min", "max"} {
		if k == 0 || k >= len(f) || f[k] == "" {
			continue
		}
		if n, ok := perfNumber(f[k]); ok {
			obj[name] = n
			continue
		}
		if (name == "warn" || name == "crit") && perfRange.MatchString(f[k]) && strings.ContainsAny(f[k], "0123456789~") {
			obj[name] = f[k]
			continue
		}
		want := "a number"
		if name == "warn" || name == "crit" {
			want = "a number or a range"
		}
		return nil, text, rest, fmt.Sprintf("%s %q is not %s", name, f[k], want)
	}
	return obj, text, rest, ""
}

var (
	// valueUOM is a perfdata value and its unit: [-0-9.] (with an
	// exponent, which some plugins print) or U, then letters or %.
	valueUOM = regexp.MustCompile(`^(U|[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)([A-Za-z%]*)$`)
	// perfRange is a threshold range: [@][start:][end], start may be ~.
	perfRange = regexp.MustCompile(`^@?(?:(?:~|[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)?:)?(?:[-+]?[0-9.]+(?:[eE][-+]?[0-9]+)?)?$`)
)

// word splits s at the first space or tab from i on.
func word(s string, i int) (string, string) {
	if j := strings.IndexAny(s[i:], " \t"); j >= 0 {
		return s[:i+j], s[i+j:]
	}
	return s, ""
}

// perfNumber reads a perfdata number: a JSON number literal as number
// does, or the looser spellings plugins print (.5, 5., +1, 007), as a
// float64, never ±Inf or NaN.
func perfNumber(s string) (any, bool) {
	if n, ok := number(s); ok {
		return n, true
	}
	if strings.ContainsAny(s, "xXpPnNiI_") { // no hex, inf, nan, digit separators
		return nil, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

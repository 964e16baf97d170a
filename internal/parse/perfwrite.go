package parse

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// PerfLabel is a perfdata label as the plugin API writes it: quoted with
// ' when it holds a space or a tab (which end an item), a ' or an '=', a '
// in it doubled. The one home
// of that rule for every perfdata item runbook writes (a check's counts
// per verdict word, a chart's result.perfdata).
func PerfLabel(label string) string {
	if strings.ContainsAny(label, " \t'=") {
		return "'" + strings.ReplaceAll(label, "'", "''") + "'"
	}
	return label
}

// perfKeys are the members of a perfdata item, as the nagios mode reads
// one (parseNagios) and PerfItemText writes it.
var perfKeys = []string{"label", "value", "uom", "warn", "crit", "min", "max"}

// PerfItemText writes v, a perfdata item in the shape the nagios parse
// mode reads one ({label, value, uom, warn, crit, min, max}, absent or
// null members left out), as the plugin API's
// 'label'=value[uom];[warn];[crit];[min];[max], with prefix before its
// label ("" for none). What the mode would not read back is an error
// saying which member and why, never an item a graphing add-on misreads:
// a label empty or with a line end or a |, a value no number nor "U", a unit with
// other than letters and %, a threshold no number nor range, a member it
// does not know (a misspelt "critical" would drop the threshold).
//
//	{label: load1, value: 0.5, warn: 5, crit: "10:"}   load1=0.5;5;10:
//	{label: "/", value: 80, uom: "%", max: 100}         disk::/=80%;;;;100 (prefix "disk::")
func PerfItemText(v any, prefix string) (string, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return "", fmt.Errorf("a perfdata item is an object {label, value, uom, warn, crit, min, max}, not %s", jsonv.Describe(v))
	}
	var unknown []string
	for k := range m {
		if !slices.Contains(perfKeys, k) {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return "", fmt.Errorf("a perfdata item has no member %s (its members: %s)", strings.Join(unknown, ", "), strings.Join(perfKeys, ", "))
	}
	label, ok := m["label"].(string)
	if !ok || label == "" {
		return "", fmt.Errorf("a perfdata item's label is %s, want a text that is not empty", jsonv.Describe(m["label"]))
	}
	label = prefix + label
	if strings.ContainsAny(label, "\r\n") {
		return "", fmt.Errorf("perfdata %q: its label holds a line end, which ends the check's line", label)
	}
	if strings.Contains(label, "|") {
		// a core splits the line at its first |: quoted or not, the
		// label would end the status text or begin another perfdata
		return "", fmt.Errorf("perfdata %q: its label holds a |, which a monitoring core reads as where perfdata begins", label)
	}
	text := func(name string, v any, ranged bool) (string, error) {
		switch t := v.(type) {
		case nil:
			return "", nil
		case json.Number:
			// digits no float64 holds (jsonv.Decoded): written as read
			return string(t), nil
		case string:
			if ranged && perfRange.MatchString(t) && strings.ContainsAny(t, "0123456789~") {
				return t, nil
			}
		default:
			if f, ok := jsonv.Float(t); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				if n, ok := jsonv.Whole(t); ok {
					return strconv.Itoa(n), nil
				}
				return strconv.FormatFloat(f, 'f', -1, 64), nil
			}
		}
		want := "a number"
		if ranged {
			want = "a number or a range (10:, ~:20, @5:10)"
		}
		return "", fmt.Errorf("perfdata %q: its %s is %s, want %s", label, name, jsonv.Describe(v), want)
	}
	var b strings.Builder
	b.WriteString(PerfLabel(label) + "=")
	if m["value"] == "U" {
		b.WriteString("U")
	} else {
		if _, isText := m["value"].(string); isText || m["value"] == nil {
			return "", fmt.Errorf("perfdata %q: its value is %s, want a number, or \"U\" where the plugin could not tell", label, jsonv.Describe(m["value"]))
		}
		s, err := text("value", m["value"], false)
		if err != nil {
			return "", err
		}
		b.WriteString(s)
	}
	if u := m["uom"]; u != nil {
		us, ok := u.(string)
		if !ok || !perfUnit.MatchString(us) {
			return "", fmt.Errorf("perfdata %q: its uom is %s, want a unit of letters or %% (s, ms, %%, B, KB, c)", label, jsonv.Describe(u))
		}
		b.WriteString(us)
	}
	fields := make([]string, 4)
	for i, name := range []string{"warn", "crit", "min", "max"} {
		s, err := text(name, m[name], i < 2)
		if err != nil {
			return "", err
		}
		fields[i] = s
	}
	n := len(fields)
	for n > 0 && fields[n-1] == "" {
		n--
	}
	for _, f := range fields[:n] {
		b.WriteString(";" + f)
	}
	return b.String(), nil
}

// perfUnit is a perfdata unit as valueUOM reads one.
var perfUnit = regexp.MustCompile(`^[A-Za-z%]*$`)

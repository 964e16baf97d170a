package chart

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// noHeaderFlag is how a tool is told to print its table with no header
// row: its long options, its one-letter option ("" for none), and its
// one-letter options that take a value, which end a group of them
// (`lsblk -no NAME` holds -n; `lsblk -on NAME` does not). takesValues
// holds every letter that takes a value in any of the tools sharing it,
// and may hold more: a letter wrongly there misses a flag, one wrongly
// missing reads a value as flags.
type noHeaderFlag struct {
	long        []string
	short       byte
	takesValues string
	// shown is a long option that prints the header unless set off
	// (systemctl's --legend=no)
	shown string
}

// noHeaderFlags are the tools whose tables a chart reads with columns,
// csv or tsv, by program name.
var noHeaderFlags = func() map[string]noHeaderFlag {
	rabbit := noHeaderFlag{long: []string{"--no-table-headers"}}
	// lsblk's -d is --nodeps and findmnt's --direction WORD: one set for
	// both missed the -n of `lsblk -dn -o NAME,ROTA`
	utilLinux := noHeaderFlag{long: []string{"--noheadings"}, short: 'n', takesValues: "oxEeIMQSTtOFNwdpjiasLU"}
	lsblk := noHeaderFlag{long: []string{"--noheadings"}, short: 'n', takesValues: "EeIoTwxQ"}
	findmnt := noHeaderFlag{long: []string{"--noheadings"}, short: 'n', takesValues: "dFMNOopSTtwQ"}
	lvm := noHeaderFlag{long: []string{"--noheadings"}}
	// mysql's -s is --silent, and takes no value (mysql -sN -e …)
	mysql := noHeaderFlag{long: []string{"--skip-column-names"}, short: 'N', takesValues: "eDhuPpS"}
	slurm := noHeaderFlag{long: []string{"--noheader"}, short: 'h', takesValues: "AMuoOStwnpjLqRrTbEek"}
	m := map[string]noHeaderFlag{
		"rabbitmqctl": rabbit, "rabbitmq-diagnostics": rabbit, "rabbitmq-queues": rabbit, "rabbitmq-plugins": rabbit, "rabbitmq-streams": rabbit,
		"lsblk": lsblk, "findmnt": findmnt, "losetup": utilLinux, "lslocks": utilLinux, "lsns": utilLinux, "swapon": utilLinux, "zramctl": utilLinux, "lsipc": utilLinux, "lsirq": utilLinux, "lsfd": utilLinux,
		"pvs": lvm, "vgs": lvm, "lvs": lvm,
		"mysql": mysql, "mariadb": mysql,
		"squeue": slurm, "sinfo": slurm,
		"ss":        {long: []string{"--no-header"}, short: 'H', takesValues: "fAFN"},
		"psql":      {long: []string{"--tuples-only"}, short: 't', takesValues: "cdfFhLoPpRTUv"},
		"kubectl":   {long: []string{"--no-headers"}},
		"systemctl": {long: []string{"--no-legend"}, shown: "--legend"},
	}
	return m
}()

// noHeaderGiven is the option by which argv tells its program to print no
// header row ("" when it does not, or the program is none noHeaderFlags
// knows).
func noHeaderGiven(argv []string) string {
	if len(argv) < 2 {
		return ""
	}
	if filepath.Base(argv[0]) == "ps" {
		return psNoHeader(argv[1:])
	}
	f, ok := noHeaderFlags[filepath.Base(argv[0])]
	if !ok {
		return ""
	}
	for _, a := range argv[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, val, set := strings.Cut(a, "=")
			if slices.Contains(f.long, name) && !(set && isFalse(val)) {
				return name
			}
			if f.shown != "" && name == f.shown && set && isFalse(val) {
				return a
			}
			continue
		}
		if f.short == 0 || len(a) < 2 || a[0] != '-' {
			continue
		}
		for i := 1; i < len(a); i++ {
			if a[i] == f.short {
				return "-" + string(f.short)
			}
			if strings.IndexByte(f.takesValues, a[i]) >= 0 {
				break // the rest of the group is its value
			}
		}
	}
	return ""
}

// isFalse says whether a flag's value sets it off: kubectl get pods
// --no-headers=false prints the header.
func isFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "0", "no", "off":
		return true
	}
	return false
}

// psNoHeader is how ps's arguments tell it to print no header ("" when
// they do not): --no-headers, BSD's h (`ps axh -o pid,comm`), or every
// column's header written blank (`ps -o pid= -o comm=`, `-eo
// pid=,comm=`: procps prints no header line when every one is blank).
// The letters whose value follows (-C sshd, -u www-data, o pid) end a
// group, and their values are no flags.
func psNoHeader(args []string) string {
	const dashValues, bsdValues = "CGgpqstUuoOk", "oOpqtUk"
	var formats []string
	format := false // the next argument is a format
	value := false  // the next argument is another option's value
	for _, a := range args {
		switch {
		case format:
			formats, format = append(formats, a), false
			continue
		case value:
			value = false
			continue
		case a == "--":
			return ""
		case a == "--no-headers" || a == "--no-heading" || a == "--no-headings":
			return a
		case a == "--format" || a == "-o" || a == "-O":
			format = true
			continue
		case strings.HasPrefix(a, "--format="):
			formats = append(formats, strings.TrimPrefix(a, "--format="))
			continue
		case strings.HasPrefix(a, "--"):
			_, _, has := strings.Cut(a, "=")
			value = !has && slices.Contains([]string{"--pid", "--ppid", "--sid", "--tty", "--user", "--User", "--group", "--Group", "--sort", "--cols", "--columns", "--lines", "--rows", "--width", "--quick-pid"}, a)
			continue
		}
		letters, values := a, bsdValues
		if strings.HasPrefix(a, "-") {
			letters, values = a[1:], dashValues
		}
		for i := 0; i < len(letters); i++ {
			c := letters[i]
			if c == 'h' && values == bsdValues {
				return "h"
			}
			if strings.IndexByte(values, c) < 0 {
				continue
			}
			rest := letters[i+1:]
			switch {
			case (c == 'o' || c == 'O') && rest != "":
				formats = append(formats, rest)
			case c == 'o' || c == 'O':
				format = true
			default:
				value = rest == ""
			}
			break
		}
	}
	if len(formats) == 0 {
		return ""
	}
	for _, f := range formats {
		for _, col := range strings.Split(f, ",") {
			if _, header, ok := strings.Cut(col, "="); !ok || header != "" {
				return ""
			}
		}
	}
	return "-o " + strings.Join(formats, " -o ")
}

// headerlessTable is what is wrong with an exec that reads a table with
// a header row (columns, csv or tsv, header: true, the default) from a
// command told to print none ("" when nothing is): the table's first row
// is taken for its header, its words key the other rows, and it is lost.
// `rabbitmqctl -q list_queues --no-table-headers name messages consumers`
// read by tsv keyed its one other queue by the first's name and numbers,
// a filter on .consumers read no such column, and the orphaned queue was
// dropped: `OK - no verdict rows`, Consistent (wave-mq's design
// question). The command is the exec's argv, or a shell: script of one
// command (a pipeline's table is its last command's, whose flags are not
// known here).
func (e *ExecSpec) headerlessTable() string {
	switch e.Parse.Mode {
	case "columns", "csv", "tsv":
	default:
		return ""
	}
	if h, ok := e.Parse.Options["header"].(bool); ok && !h {
		return ""
	}
	argv := e.Command
	if len(argv) == 0 {
		argv = tableCommand(e.Shell)
	}
	opt := noHeaderGiven(argv)
	if opt == "" {
		return ""
	}
	return fmt.Sprintf("exec parse %s reads the output's first line as its header, and %s %s prints no header: its first row would key the others and be lost; write parse: {as: %s, header: false, names: [...]} naming the columns in the order the command prints them, or drop %s", e.Parse.Mode, filepath.Base(argv[0]), opt, e.Parse.Mode, opt)
}

// rowFilters are the programs that pass a table's rows on as they are,
// or some of them, and print no header of their own.
var rowFilters = []string{"grep", "egrep", "fgrep", "sort", "head", "tail", "uniq", "tac", "shuf"}

// tableCommand is the words of the command whose table a shell: script
// prints: the script's one command, or the first of a pipeline of it and
// rowFilters alone (`lsblk -dn -o NAME,ROTA | grep -v loop | sort`),
// whose table is its first command's with rows left out or reordered;
// each word's value where bash expands none of it (literalWord). nil for
// any other script: a list, a stdout redirected, a filter that could
// write a header (awk, sed, a script).
func tableCommand(script string) []string {
	if script == "" {
		return nil
	}
	f, err := parseBash(script)
	if err != nil || len(f.Stmts) != 1 || f.Stmts[0].Background || f.Stmts[0].Negated || stdoutRedirected(f.Stmts[0]) {
		return nil
	}
	var cmds []*syntax.Stmt
	var flatten func(st *syntax.Stmt) bool
	flatten = func(st *syntax.Stmt) bool {
		if b, ok := st.Cmd.(*syntax.BinaryCmd); ok {
			return b.Op == syntax.Pipe && flatten(b.X) && flatten(b.Y)
		}
		cmds = append(cmds, st)
		return true
	}
	if !flatten(f.Stmts[0]) {
		return nil
	}
	var words [][]string
	for _, st := range cmds {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || stdoutRedirected(st) {
			return nil
		}
		w := make([]string, len(c.Args))
		for i, a := range c.Args {
			w[i] = literalWord(a)
		}
		words = append(words, w)
	}
	for _, w := range words[1:] {
		if !slices.Contains(rowFilters, filepath.Base(w[0])) {
			return nil
		}
	}
	return words[0]
}

// stdoutRedirected says whether a statement sends its stdout elsewhere
// (`> FILE`, `1>> FILE`, `>&2`, `&> FILE`); stderr's redirections (`2>&1`,
// `2>/dev/null`) and its input's (`< FILE`, `<<< …`) leave it.
func stdoutRedirected(st *syntax.Stmt) bool {
	for _, r := range st.Redirs {
		switch r.Op {
		case syntax.RdrAll, syntax.AppAll:
			return true
		case syntax.RdrOut, syntax.AppOut, syntax.DplOut, syntax.RdrClob:
			if r.N == nil || r.N.Value == "1" {
				return true
			}
		}
	}
	return false
}

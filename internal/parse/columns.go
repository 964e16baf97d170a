package parse

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/openrunbook/runbook/internal/display"
)

// columns is `columns`: a list of objects from a whitespace-aligned table
// (`df -P`, `ps`, `free`), one per row, keyed by the header row.
//
//	header   false: there is no header row; names key the columns
//	names    the column names; with a header row, it is read past and names key the columns
//	         (a header read past that holds a number is a problem: a row where the header was)
//	skip     lines passed over before the header (or the first row)
//	last     "rest": the last column takes the rest of the line, spaces and all — in the
//	         header row too, so df's "Mounted on" is one column; "split" (default): it does not
//	numbers  false keeps every value a string
//
// A text with no header row (blank, or every line skipped) is a problem:
// no table, where a table with no rows prints its header. A row with
// fewer fields than columns, or more (without last: rest), is a
// problem; so is a header whose last column, under last: rest, would take
// a name with a run of spaces inside it (ss's "Local Address:Port  Peer
// Address:Port…": names with spaces no split can tell apart), and a row
// whose first field ends before the header's first name begins (free's "Mem:"): a column the header does not name, which
// would key every value one column off. Under last: rest, a row whose last
// column holds spaces and begins left of the header's last name is a
// problem too: a space inside an earlier value (a CIFS share's "//nas/My
// Share" in df) shifted it, and every value after that one would be keyed
// one column off; so is a row that holds a word right under the header's
// last name while its last column would begin right of it: the header
// names fewer columns than the row has (/proc/net/tcp's "tx_queue
// rx_queue" over one value), and "uid" would key the inode; with no header line, where the rows' last column
// begins is what the rows agree on (restAnchor), so ps --no-headers's
// comm "tmux: server" is a problem too, and so is a row whose last value
// holds a column of the table (innerColumn: systemctl list-timers
// --no-legend, whose "4h 4min left" moved every row's split alike), and
// one whose first field is a mark, not a value (markGlyph: systemctl's ●),
// and, under a header, one whose last value holds a word where the header
// pads a name apart (headerInside: journalctl --list-boots's "LAST ENTRY"
// under names that stop at "last"). A line that repeats the header (two ps runs in one
// shell, a tool that prints its header again every screenful, sysstat's
// "Average:" table: repeatsHeader) is passed over: it holds the names, no
// values. A line that heads another table of a tool that labels its
// lines with the time (sar -n IP,EIP prints two: otherHeader) is a
// problem, and so is each row under it until this table's header comes
// again: its values would be keyed by this table's names. A header
// naming a column twice keys the second "NAME_2". With
// last: rest, the header's last column starts where the rows say: the
// header has as many columns as most rows have fields.
type columns struct {
	header  bool
	names   []string
	skip    int
	rest    bool
	numbers valuer
}

func newColumns(o opts) (parser, error) {
	p := &columns{}
	var err error
	if p.header, p.names, err = o.header(); err != nil {
		return nil, err
	}
	if p.skip, err = o.whole("skip"); err != nil {
		return nil, err
	}
	if p.numbers, err = o.valuer(); err != nil {
		return nil, err
	}
	last, _, err := o.string("last")
	if err != nil {
		return nil, err
	}
	switch last {
	case "", "split":
	case "rest":
		p.rest = true
	default:
		return nil, fmt.Errorf("parse mode columns: option last is %q, want rest or split", last)
	}
	return p, nil
}

func (p *columns) parse(text string, r *recorder) any {
	if webPage(text, r) {
		return []any{}
	}
	type row struct {
		n   int
		s   string
		why string // the problem it is, said in line order among the rows' (otherHeader)
	}
	var head *row
	var rows, others []row
	var headFields []string
	underHead := false // the line before this one (blanks aside) was the header
	other := 0         // the line heading another table whose rows these are (otherHeader), 0 in this one's
	for i, s := range r.records(text) {
		if i < p.skip || blank(s) || (p.header && head == nil && rabbitmqBanner(s)) {
			continue
		}
		under := underHead
		if underHead && (equalsRule(s) || dashRule(s)) {
			// ntpq -p's and chronyc sources' rule under the header: no
			// row, and every clock check over them stood Not sure.
			// sacct's and exiqsumm's, a run of dashes a column, was a row
			// whose every value was dashes: sacct over a day no job ran
			// read one job (TestRuleOfDashesUnderTheHeaderIsNoRow).
			underHead = false
			continue
		}
		underHead = false
		if p.header && head == nil {
			underHead = true
			head = &row{n: i + 1, s: s}
			headFields = blankFields(s)
			if boxBorder.MatchString(strings.TrimSpace(s)) {
				r.problem(i+1, s, boxBorderWhy)
			}
			if p.names != nil {
				if msg, ok := valueReadPast(headFields); ok {
					r.problem(i+1, s, msg)
				}
			}
			continue
		}
		if head != nil && repeatsHeader(blankFields(s), headFields) {
			// The header again (two ps runs in one shell, iostat's
			// every screenful, sysstat's "Average:" table): it names the
			// columns and holds no values. Read as a row it was a subject
			// named "PID COMMAND", or sar's NIC "IFACE".
			other = 0
			continue
		}
		if head != nil {
			if names, ok := otherHeader(blankFields(s), headFields); ok {
				// sysstat prints one table per activity asked for (sar -n
				// IP,EIP): this line heads the next one, and its rows
				// were keyed by this table's names in silence.
				other = i + 1
				others = append(others, row{i + 1, s, fmt.Sprintf("it heads another table (%s), not this one's (%s): the tool printed a table for each thing asked of it (sar -n IP,EIP), and a columns parse reads one table, so that table's rows would be keyed by this one's names; ask for one a stage (sar -n IP 1 3, then sar -n EIP 1 3), or read the tool's JSON (sadf -j)", strings.Join(names, " "), strings.Join(headNames(headFields), " "))})
				continue
			}
			if other > 0 {
				others = append(others, row{i + 1, s, fmt.Sprintf("it is a row of the other table headed at line %d, whose columns are not this table's: a columns parse reads one table (ask for one a stage, or read the tool's JSON)", other)})
				continue
			}
		}
		if head != nil || !p.header {
			why := psqlFooter(s)
			if why == "" {
				why = psqlRuleLine(s, under, len(headFields))
			}
			if why != "" {
				r.problem(i+1, s, why)
				continue
			}
		}
		rows = append(rows, row{n: i + 1, s: s})
	}
	if p.header && head == nil {
		// No header row: the command printed no table at all, which is no
		// table of no rows (ps and df print their header over none). A
		// filter that cut the table out of a tool's output reads so:
		// smartctl -A of an NVMe disk has no ATA attribute table, and
		// sed -n '/^ID#/,/^$/p' over it printed nothing
		// (TestBlankTextIsNoTable).
		r.problem(p.skip+1, "", "no header row: the text holds no line to read one from, so it is no table, not a table with no rows (a tool prints its header over none, as ps and df do); a command or a filter before the parse printed nothing (a sed or grep that found no table to cut out); where the tool prints nothing when it has no rows, name the columns: header: false, names: [...]")
	}
	names := p.names
	merged := false // the header's last name spans several columns, a problem of its own
	if names == nil && head != nil {
		f := blankFields(head.s)
		if p.rest {
			counts := make([]int, len(rows))
			for i, rw := range rows {
				counts[i] = len(blankFields(rw.s))
			}
			f = fields(head.s, headerWidth(len(f), counts), true)
			if last := f[len(f)-1]; strings.Contains(last, "  ") || strings.ContainsRune(last, '\t') {
				merged = true
				r.problem(head.n, head.s, fmt.Sprintf("the header's last column would be named %q, which spans several of its columns: names with spaces in them (ss's \"Local Address:Port\") are not told apart by spaces, so the rows' keys are not the header's (name every column with names: [...])", last))
			}
		}
		names = unique(f, r, head.n, head.s)
	}
	// aligned says whether some row's last value, one word, begins where
	// the header's last name begins (at): the table is aligned there, as
	// df's is, and a row whose last value begins left of it was shifted.
	// A table of single spaces is not aligned, and not judged so.
	alignedAt := map[int]bool{}
	aligned := func(at int) bool {
		if v, ok := alignedAt[at]; ok {
			return v
		}
		for _, rw := range rows {
			if len(blankFields(rw.s)) == len(names) && restStart(rw.s, len(names)) == at {
				// at and restStart are columns, not bytes (restStart)
				alignedAt[at] = true
				return true
			}
		}
		alignedAt[at] = false
		return false
	}
	// With no header line (ps --no-headers), where the last column
	// begins is what the rows themselves agree on (restAnchor), block by
	// block: rows with no line between them. ls -la /tmp /dev prints a
	// table per folder, each padded to its own widths.
	anchors := make([]int, len(rows))
	inner := make([]int, len(rows)) // a column of the table inside the rows' last value (innerColumn)
	for i := range anchors {
		anchors[i], inner[i] = -1, -1
	}
	if p.rest && head == nil {
		for i := 0; i < len(rows); {
			j := i + 1
			for j < len(rows) && rows[j].n == rows[j-1].n+1 {
				j++
			}
			block := make([]string, 0, j-i)
			for _, rw := range rows[i:j] {
				block = append(block, rw.s)
			}
			at, col := restAnchor(block, len(names)), innerColumn(block, len(names))
			for k := i; k < j; k++ {
				anchors[k], inner[k] = at, col
			}
			i = j
		}
	}
	var headCols []int // columns the header pads a name at, inside rows' last values (headerInside)
	if p.rest && head != nil {
		texts := make([]string, len(rows))
		for i, rw := range rows {
			texts[i] = rw.s
		}
		headCols = headerInside(head.s, texts, len(names))
	}
	out := []any{}
	for i, rw := range rows {
		for len(others) > 0 && others[0].n < rw.n {
			r.problem(others[0].n, others[0].s, others[0].why)
			others = others[1:]
		}
		anchor := anchors[i]
		if mark, ok := markGlyph(rw.s); ok {
			r.problem(rw.n, rw.s, fmt.Sprintf("its first field is the symbol %q alone, a mark the tool prints beside a row (systemctl's ● before a failed unit), not a value: every value after it would be keyed one column off (read systemctl's tables with --plain, which leaves the mark out, or from --output=json)", mark))
			continue
		}
		if p.names == nil && head != nil {
			if first, ok := leftOfHeader(rw.s, head.s); ok {
				r.problem(rw.n, rw.s, fmt.Sprintf("its first field %q lies left of the header's first column %q: the header does not name that column, so every value would be keyed one column off (name every column with names: [...] and header: true, which reads the header row past)", first, blankFields(head.s)[0]))
				continue
			}
		}
		f := fields(rw.s, len(names), p.rest)
		if open, close, ok := splitParen(f, p.rest); ok {
			r.problem(rw.n, rw.s, fmt.Sprintf("its field %q opens a parenthesis that %q, a later word of the row, closes: a value in parentheses with a space inside it (a process's name in /proc/PID/stat, \"(my proc (x))\") was split at its spaces, so every value after it would be keyed off (read such a line with a parse: regex that takes the name whole, up to its last \")\": '^(?P<pid>\\d+) \\((?P<comm>.*)\\) (?P<state>\\S) ')", open, close))
			continue
		}
		if p.rest && head != nil && len(f) == len(names) && strings.ContainsRune(f[len(f)-1], ' ') {
			if at, want := restStart(rw.s, len(names)), restStart(head.s, len(names)); at >= 0 && want >= 0 && at < want && (aligned(want) || wordAt(rw.s, want) || paddedWordNear(rw.s, at, want)) {
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column holds %q, which begins left of the header's %q: a value with a space in an earlier column (df's \"//nas/My Share\") has shifted the row, so its values would be keyed one column off (read such a table with a parse: regex that knows its columns, or from JSON output: findmnt -J -l -D -b for df)", f[len(f)-1], names[len(names)-1]))
				continue
			}
		}
		if p.rest && p.names == nil && head != nil && !merged && len(f) == len(names) && len(blankFields(head.s)) > len(names) {
			// The header's last name is several of its words (rest), and
			// the row's last value begins right of where that name ends:
			// under no name at all (/proc/net/udp's header names 15
			// columns over 13 values, "ref pointer drops" the last). A
			// header offset from its rows, its names one word each
			// (/proc/net/unix's over its paths), is not judged.
			hf := fields(head.s, len(names), true)
			if at, want := restStart(rw.s, len(names)), restStart(head.s, len(names)); want >= 0 && at > want+display.Width(hf[len(hf)-1]) {
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column would begin at %q, right of where the header's %q ends: the header's names do not stand over the row's values (/proc/net/udp's 15 names over 13 values), so its values would be keyed off (name every column with names: [...] and header: true, which reads the header row past)", f[len(f)-1], names[len(names)-1]))
				continue
			}
		}
		if p.rest && p.names == nil && head != nil && !merged && len(f) == len(names) && len(blankFields(head.s)) < len(blankFields(rw.s)) {
			// The header has fewer words than the row has values, and the
			// row's value under its last name is not where the split puts
			// the last column. (A header that has as many words or more,
			// as /proc/net/unix's, misaligned with its rows, is not judged.)
			if at, want := restStart(rw.s, len(names)), restStart(head.s, len(names)); at > want && want >= 0 && wordAt(rw.s, want) {
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column would begin at %q, right of the header's %q, under which the row holds %q: the header names fewer columns than the row has values before it (/proc/net/tcp's \"tx_queue rx_queue\" over one value \"00000000:00000000\"), so its values would be keyed off (name every column with names: [...] and header: true, which reads the header row past)", f[len(f)-1], names[len(names)-1], wordFrom(rw.s, want)))
				continue
			}
		}
		if anchor >= 0 && len(f) == len(names) && strings.ContainsRune(f[len(f)-1], ' ') {
			if at := restStart(rw.s, len(names)); at >= 0 && at < anchor && wordAt(rw.s, anchor) {
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column holds %q, which begins left of where the other rows' %q begins: a value with a space in an earlier column (ps's comm \"tmux: server\") has shifted the row, so its values would be keyed one column off (read such a table with a parse: regex that knows its columns, or print the value with spaces last)", f[len(f)-1], names[len(names)-1]))
				continue
			}
		}
		if len(headCols) > 0 && len(f) == len(names) {
			at := restStart(rw.s, len(names))
			if k := slices.IndexFunc(headCols, func(c int) bool { return c > at }); at >= 0 && k >= 0 {
				c := headCols[k]
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column holds %q, in which %q begins under the header's %q, where every row has a word: the last value spans a column the header names, so the names do not stand over the row's values (name each of the header's columns, or read such a table with a parse: regex that knows its columns, or from JSON output: journalctl --list-boots -o json)", f[len(f)-1], wordFrom(rw.s, c), wordFrom(head.s, c)))
				continue
			}
		}
		if col := inner[i]; col >= 0 && len(f) == len(names) {
			if at := restStart(rw.s, len(names)); at >= 0 && at < col {
				r.problem(rw.n, rw.s, fmt.Sprintf("its last column holds %q, in which %q begins where every row of the table has a word and one row has a run of spaces before it: a column of the aligned table, so the table has more columns than the %d names, or a value with spaces in an earlier column (systemctl list-timers' LEFT \"4h 4min left\") moved the split, and its values would be keyed off (read such a table with a parse: regex that knows its columns, or from JSON output: systemctl --output=json)", f[len(f)-1], wordFrom(rw.s, col), len(names)))
				continue
			}
		}
		if p.names == nil && head != nil && !merged && len(f) == len(names) {
			if blank, value, under, ok := hiddenBlank(rw.s, head.s, len(names), p.rest); ok {
				r.problem(rw.n, rw.s, fmt.Sprintf("it holds nothing under the header's %q, yet the split keys %q by it, a value that lies under the header's %q: the tool left a cell blank and a later value holds spaces (lastlog's \"**Never logged in**\" under \"Latest\", Port and From blank), so the count came out right and every value from the blank one on is keyed off (read such a table with a parse: regex that knows its columns, or ask the tool for fields it does not leave blank)", blank, value, under))
				continue
			}
		}
		if len(f) != len(names) {
			hint := restHint(len(f) > len(names) && !p.rest)
			if head != nil && p.names == nil && len(f) == len(names)-1 && len(headFields) > 0 && headFields[0] == "#" {
				// HAProxy's show servers state heads its rows "# be_id
				// be_name …": the mark is a word of the header, no column.
				hint = fmt.Sprintf(": the header opens with \"#\", a comment mark that names no column (as HAProxy's show servers state prints it), so the header has one word more than the rows have values; name the columns with names: [%s, …] and header: true, which reads the header row past", strings.Join(headFields[1:min(len(headFields), 3)], ", "))
			} else if head != nil && len(f) < len(names) {
				hint += blankUnder(rw.s, head.s, len(names)-len(f))
			}
			r.problem(rw.n, rw.s, fmt.Sprintf("%d %s, the table has %d columns%s", len(f), plural(len(f), "field"), len(names), hint))
			continue
		}
		obj := make(map[string]any, len(names))
		for j, n := range names {
			obj[n] = p.numbers.of(f[j])
		}
		out = append(out, obj)
	}
	for _, o := range others {
		r.problem(o.n, o.s, o.why)
	}
	return out
}

// restAnchor is the display column where the last of n columns begins
// in a table with no header line, or -1 when the rows do not show one: the
// column the most rows' last value begins at (the leftmost, on a tie),
// shared by at least two rows, one of them padded with a run of spaces
// (an aligned table, as ps --no-headers prints; a table of single spaces
// has no one column, and is not judged). A row whose last value begins
// left of it, holds a space and has a word beginning at it was shifted by
// a space in an earlier value; one that begins right of it (ps widens a
// column for one long value) is not judged.
//
//	"    2 root kthreadd        [kthreadd]" and "   19 root sleep           sleep 9" over n=4: column 27
func restAnchor(rows []string, n int) int {
	count := map[int]int{}
	padded := map[int]bool{}
	for _, s := range rows {
		at := restStart(s, n)
		if at < 0 {
			continue
		}
		count[at]++
		if strings.Contains(strings.TrimLeft(s, " "), "  ") {
			padded[at] = true
		}
	}
	best, bestN := -1, 0
	for at, c := range count {
		if c > bestN || (c == bestN && at < best) {
			best, bestN = at, c
		}
	}
	if bestN < 2 || !padded[best] {
		return -1
	}
	return best
}

// innerColumn is the leftmost display column, inside some row's last
// value, at which a column of the table begins, in a table with no header
// line whose last of n columns takes the rest: a word begins there after a
// run of two spaces or more (an aligned table's padding) in one row's last
// value, every row of n fields has a word beginning there, and the runs of
// spaces before it are not all one length (a column pads values of
// different widths; rows whose last values are one text with a double
// space in it, twenty workers' identical args, pad nothing). Or -1: fewer
// than two such rows, or no such column. systemctl list-timers --no-legend
// holds spaces in four of its columns ("Mon 2026-12-07 00:00:00 UTC", "4h
// 4min left"), so a split of its rows by spaces puts the last column's
// start left of the UNIT and ACTIVATES columns, every row alike, and
// restAnchor sees nothing amiss; the UNIT column, padded in every row,
// shows it. The last values of different rows (ps's args) do not hold a
// word at one column after padding.
//
//	"Mon … 4h 4min left Sun … UTC 19h ago      logrotate.timer logrotate.service" and "… 4 days ago   backup.timer …" over n=6: the UNIT column
func innerColumn(rows []string, n int) int {
	// Per display column: how many rows have a word start there, whether
	// one has it after a run of two spaces or more inside its last value,
	// the run before it as the first row had it, and whether runs differ.
	type colFacts struct {
		starts         int
		padded, varied bool
		run            int
	}
	var cols []colFacts
	full := 0
	for _, s := range rows {
		at := restStart(s, n)
		if at < 0 || len(fields(s, n, true)) != n {
			continue
		}
		full++
		col, spaces := 0, 0
		for _, r := range s {
			if r == ' ' {
				spaces++
			} else {
				if spaces > 0 && col > 0 {
					for len(cols) <= col {
						cols = append(cols, colFacts{})
					}
					c := &cols[col]
					if c.starts == 0 {
						c.run = spaces
					} else if c.run != spaces {
						c.varied = true
					}
					c.starts++
					c.padded = c.padded || (spaces >= 2 && col > at)
				}
				spaces = 0
			}
			if r < utf8.RuneSelf {
				col++ // every ASCII character is one column (display.Width), measured without a string
			} else {
				col += display.Width(string(r))
			}
		}
	}
	if full < 2 {
		return -1
	}
	for at, c := range cols {
		if c.starts == full && c.padded && c.varied {
			return at
		}
	}
	return -1
}

// headerInside is the display columns, in order, at which the header
// begins a name after a run of two spaces or more (its padding, where a
// column of the table begins) right of where some row's last of n columns
// begins, and at which every row of n fields has a word: the rows' last
// value holds a column the header names. journalctl --list-boots read with
// names [idx, boot, first, last] put "Fri" in first and the rest of the
// row, LAST ENTRY's time too, in last, every row alike; the header pads
// "LAST" where each row has its weekday. A header whose names past the
// last one's start are one word apart (df's "Mounted on") has none.
func headerInside(header string, rows []string, n int) []int {
	first, full := -1, 0
	for _, s := range rows {
		if at := restStart(s, n); at >= 0 && len(fields(s, n, true)) == n {
			full++
			if first < 0 || at < first {
				first = at
			}
		}
	}
	if full == 0 || strings.ContainsRune(header, '\t') {
		return nil
	}
	var cols []int
	col, spaces := 0, 0
	for _, r := range header {
		if r == ' ' {
			spaces++
		} else {
			if spaces >= 2 && col > first {
				cols = append(cols, col)
			}
			spaces = 0
		}
		col += display.Width(string(r))
	}
	return slices.DeleteFunc(cols, func(c int) bool {
		return slices.ContainsFunc(rows, func(s string) bool {
			return restStart(s, n) >= 0 && len(fields(s, n, true)) == n && !wordAt(s, c)
		})
	})
}

// splitParen says whether a row's fields f hold a value in parentheses
// split at a space inside it, and gives the field that opens it and the
// one that closes it: a field beginning with "(" that does not close what
// it opens, closed by a later field (the word of it that closes it is
// given). /proc/PID/stat writes a process's
// name in parentheses as it is, spaces and all: "7223 (my proc (x)) D 1
// …" read with names [pid, comm, state] gave comm "(my" and state "proc",
// and a check for processes stuck in D state said ok, Consistent, of a
// line whose state nobody read. Under last: rest the last field is one
// value, spaces and all, and is not judged.
func splitParen(f []string, rest bool) (string, string, bool) {
	end := len(f)
	if rest {
		end--
	}
	for j := 0; j < end; j++ {
		depth := strings.Count(f[j], "(") - strings.Count(f[j], ")")
		if !strings.HasPrefix(f[j], "(") || depth <= 0 {
			continue
		}
		for _, w := range blankFields(strings.Join(f[j+1:], " ")) {
			if depth -= strings.Count(w, ")") - strings.Count(w, "("); depth <= 0 {
				return f[j], w, true
			}
		}
	}
	return "", "", false
}

// markGlyph says whether row's first field is one symbol alone (Unicode's
// So: ● ○ ✓ ✗), and gives it: a mark a tool prints beside some rows, not a
// value of a column. systemctl list-units --no-legend marks each failed
// unit with "●", and over names [unit, load, active, …] every such row was
// keyed one column off, its unit "●" and its active "loaded". cron's "*"
// and ps's "-" are punctuation, values of their columns.
func markGlyph(row string) (string, bool) {
	first, _, _ := strings.Cut(strings.TrimLeft(row, " \t"), " ")
	r, size := utf8.DecodeRuneInString(first)
	if size == 0 || size != len(first) || !unicode.Is(unicode.So, r) {
		return "", false
	}
	return first, true
}

// repeatsHeader says whether a line's fields are the header's names
// again: all of them, or all but a leading label, as sysstat prints
// (mpstat, pidstat, sar), whose header opens with the time it was printed
// ("12:37:24 CPU %usr …", "12:37:24 PM CPU …" in a 12-hour locale) and
// whose summary table's header opens with "Average:" (or the locale's
// word for it): the line's label stands where the header's one or two
// words of time stood, and every name after it is the header's. The label
// must stand before at least two names, so a two-column row that happens
// to hold its column's name ("1 b" under "a b") is still a row, and a line
// shorter than that (a row missing fields) is still a problem.
func repeatsHeader(line, head []string) bool {
	if slices.Equal(line, head) {
		return true
	}
	names := len(line) - 1
	if names < 2 || names > len(head)-1 || names < len(head)-2 {
		return false
	}
	return slices.Equal(line[1:], head[len(head)-names:])
}

// otherHeader says whether a line heads another table of a tool that
// labels its lines with the time (sysstat: sar, mpstat, pidstat), and
// gives that table's names: head opens with a clock time, the line with
// a label (a time, or "Average:" or the locale's word for it, with a
// 12-hour clock's AM or PM after it) before at least two names, none of
// which is a value, that are not head's. `sar -n IP,EIP 1 1` prints the
// IP table, then the EIP one under "12:37:26 ihdrerr/s iadrerr/s …",
// eight columns each: the EIP header was a row of texts and its values
// were keyed irec/s, fwddgm/s …, Consistent. A row of values, a decimal
// comma's too (17,58 under a German LC_NUMERIC), is never a header.
//
//	"12:37:26 ihdrerr/s iadrerr/s" under "12:37:26 irec/s fwddgm/s"    another table
//	"Average: ihdrerr/s iadrerr/s" under "12:37:26 irec/s fwddgm/s"    another table
//	"12:37:27 lo 4,00" under "12:37:26 IFACE rxkB/s"                   a row
func otherHeader(line, head []string) ([]string, bool) {
	if len(head) < 3 || !clockTime.MatchString(head[0]) || len(line) < 3 {
		return nil, false
	}
	if label := line[0]; !clockTime.MatchString(label) && !(strings.HasSuffix(label, ":") && !strings.ContainsAny(label, "0123456789")) {
		return nil, false
	}
	names := headNames(line)
	if len(names) < 2 {
		return nil, false
	}
	for _, f := range names {
		if _, ok := number(f); ok || decimalComma.MatchString(f) || isoDate.MatchString(f) || ipv4.MatchString(f) {
			return nil, false
		}
	}
	return names, true
}

// headNames is a time-labelled header's names, its label (and a
// 12-hour clock's AM or PM) left out.
func headNames(head []string) []string {
	names := head[1:]
	if len(names) > 0 && (names[0] == "AM" || names[0] == "PM") {
		names = names[1:]
	}
	return names
}

var (
	clockTime    = regexp.MustCompile(`^\d{1,2}:\d{2}:\d{2}$`)
	decimalComma = regexp.MustCompile(`^-?\d+,\d+$`)
)

// leftOfHeader says whether row's first field ends before the header's
// first name begins, and gives that field: a column the header does not
// name, as free's "Mem:" under "total". Aligned tables right-align numbers
// under their names (vmstat, ps) or left-align text under them (df), so a
// named first column always reaches the header's first name. Lines with a
// tab are not judged: their columns have no one width.
func leftOfHeader(row, header string) (string, bool) {
	if strings.ContainsRune(row, '\t') || strings.ContainsRune(header, '\t') {
		return "", false
	}
	start := len(header) - len(strings.TrimLeft(header, " "))
	t := strings.TrimLeft(row, " ")
	lead := len(row) - len(t)
	first, _, _ := strings.Cut(t, " ")
	if first == "" || lead+display.Width(first) > start {
		return "", false
	}
	return first, true
}

// headerWidth is how many columns a header of words words has when its
// last column takes the rest of the line: the field count most rows have
// (the fewest, on a tie), since every column but the last is one word in a
// row; at most words, and words when there are no rows.
//
//	"Filesystem 1024-blocks Used Available Capacity Mounted on" over rows of 6 fields: 6
func headerWidth(words int, rowFields []int) int {
	freq := map[int]int{}
	best, bestN := words, 0
	for _, c := range rowFields {
		freq[c]++
	}
	for c, n := range freq {
		if n > bestN || (n == bestN && c < best) {
			best, bestN = c, n
		}
	}
	if best > words || best < 1 {
		return words
	}
	return best
}

// unique keys the header's names: a repeated name gets a _2, _3… suffix
// and counts one problem for the header line, since it is not the name
// the header wrote.
func unique(f []string, r *recorder, line int, s string) []string {
	seen := map[string]int{}
	counted := false
	out := make([]string, len(f))
	for i, n := range f {
		seen[n]++
		out[i] = n
		if seen[n] > 1 {
			out[i] = fmt.Sprintf("%s_%d", n, seen[n])
			if !counted {
				counted = true
				r.problem(line, s, fmt.Sprintf("the header names %q twice (the second is %s)", n, out[i]))
			}
		}
	}
	return out
}

// blankFields splits s on runs of spaces and tabs, the blanks a tool pads
// its columns with: strings.Fields split on every Unicode space too, so a
// name holding a no-break space (U+00A0, a Mac's Option-Space; U+202F;
// an ideographic U+3000) was two fields, where the split under last: rest
// and every column measure read it as one
// (TestColumnsNameWithANoBreakSpaceIsOneField).
func blankFields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}

// fields splits s on runs of spaces; with rest and n > 0, into at most n
// fields, the last holding the rest of the line from its first non-space
// character, trailing spaces trimmed.
func fields(s string, n int, rest bool) []string {
	if !rest || n <= 0 {
		return blankFields(s)
	}
	var out []string
	t := strings.TrimLeft(s, " \t")
	for len(out) < n-1 && t != "" {
		j := strings.IndexAny(t, " \t")
		if j < 0 {
			out = append(out, t)
			t = ""
			break
		}
		out = append(out, t[:j])
		t = strings.TrimLeft(t[j:], " \t")
	}
	if t = strings.TrimRight(t, " \t"); t != "" {
		out = append(out, t)
	}
	return out
}

// restStart is the display column (display.Width of what precedes it)
// where the n-th field of s begins when s is split into n fields the last
// of which takes the rest (fields), or -1 when s has fewer than n fields
// or a tab, whose columns have no one width. Columns, not bytes: df pads
// "//nas/共有 フォルダ" by the 19 columns it takes, not its 25 bytes, and in
// bytes its shifted last value began right of "Mounted on", so the shift
// went unseen.
func restStart(s string, n int) int {
	if n <= 0 || strings.ContainsRune(s, '\t') {
		return -1
	}
	i := 0
	for k := 0; ; k++ {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			return -1
		}
		if k == n-1 {
			return display.Width(s[:i])
		}
		for i < len(s) && s[i] != ' ' {
			i++
		}
	}
}

// headerSlack is how many display columns either side of the values
// under it a header may stand its name and still be read as over them
// (paddedWordNear): jstat stands LGCC and GCC one column left of theirs.
const headerSlack = 2

// paddedWordNear says whether s, the row, holds a word that begins after
// a run of two or more spaces, right of at (where its last value
// begins) and within headerSlack columns of want (where the header's
// last name begins): a column of the aligned table inside the row's last
// value, under a header that stands a little off the values under it.
// jstat -gccause stands LGCC and GCC one column left of their values, and
// a storm's row `Allocation Failure   Allocation Failure` under last:
// rest was keyed LGCC "Allocation", GCC "Failure   Allocation Failure",
// with no word: no row has a word at "GCC" itself
// (TestColumnsShiftedRowUnderAnOffsetHeaderIsAProblem).
func paddedWordNear(s string, at, want int) bool {
	col, prev, prev2 := 0, rune(0), rune(0)
	for _, r := range s {
		if col > at && col >= want-headerSlack && col <= want+headerSlack && r != ' ' && prev == ' ' && prev2 == ' ' {
			return true
		}
		if col > want+headerSlack {
			return false
		}
		col += display.Width(string(r))
		prev2, prev = prev, r
	}
	return false
}

// wordAt says whether a word of s begins at display column col: the row's
// own evidence that it is aligned under the header (df pads its last
// column to the header's "Mounted on" even when an earlier value shifted
// it).
func wordAt(s string, col int) bool {
	at, prev := 0, rune(0)
	for _, r := range s {
		if at == col {
			return col > 0 && r != ' ' && prev == ' '
		}
		if at > col {
			return false
		}
		at += display.Width(string(r))
		prev = r
	}
	return false
}

// wordFrom is the word of s that begins at display column col (wordAt
// said one does).
func wordFrom(s string, col int) string {
	at := 0
	for i, r := range s {
		if at == col {
			w, _, _ := strings.Cut(s[i:], " ")
			return w
		}
		at += display.Width(string(r))
	}
	return ""
}

// blankUnder says which of the header's names the row holds nothing
// under (only spaces, or the row ends before it), a cell the tool left
// blank: loginctl list-sessions prints no SEAT for a session over ssh,
// and a split by spaces cannot tell which column a row of fewer fields
// lacks. "" unless the names with nothing under them are as many as the
// fields the row lacks, or when a line holds a tab or a wide character,
// whose columns this does not measure. A footer ("2 sessions listed.")
// may meet that too, so the words say "if".
func blankUnder(row, header string, missing int) string {
	if strings.ContainsRune(row, '\t') || strings.ContainsRune(header, '\t') {
		return ""
	}
	cells := []rune(row)
	var blank []string
	joined := "" // a name of two words the blank one may end
	col, start := 0, -1
	word := func(end int) {
		if start < 0 {
			return
		}
		empty := true
		for c := start; c < end && c < len(cells); c++ {
			if cells[c] != ' ' {
				empty = false
				break
			}
		}
		if empty {
			blank = append(blank, fmt.Sprintf("%q", strings.TrimSpace(string([]rune(header)[start:end]))))
			if h := []rune(header); start >= 2 && h[start-1] == ' ' && h[start-2] != ' ' {
				// one space after the name before: "Mounted on"
				prevStart := start - 2
				for prevStart > 0 && h[prevStart-1] != ' ' {
					prevStart--
				}
				joined = string(h[prevStart:end])
			}
		}
		start = -1
	}
	for _, r := range header {
		if r == ' ' {
			word(col)
		} else if start < 0 {
			start = col
		}
		col++
	}
	word(col)
	if len(blank) != missing || display.Width(row) != len(cells) || display.Width(header) != col {
		return ""
	}
	if joined != "" && len(blank) == 1 && singleGaps(header) == 1 && len(blankFields(header)) >= 3 {
		// df --output=source,target,pcent heads its second column
		// "Mounted on", one space apart, and every row lacked "on"
		// (TestColumnsTwoWordNameInsideTheHeaderIsSaid)
		return fmt.Sprintf(": the row holds nothing under the header's %s, which stands one space after the name before it: if %q is one name of two words (df --output prints \"Mounted on\" so), a split by spaces reads it as two, and every row lacks one; name the columns with names: [...] and header: true, which reads the header row past (last: rest only joins the last column's words)", blank[0], joined)
	}
	return fmt.Sprintf(": the row holds nothing under the header's %s: if the tool left a cell blank there, a split by spaces cannot place it (read the tool's JSON output where it has one, or name the columns and read them with a parse: regex)", strings.Join(blank, " and "))
}

// singleGaps counts the gaps of one space between two names of header:
// a header whose other names stand two spaces or more apart and has one
// such gap may hold a name of two words there (df --output's "Mounted
// on"); ps's "PID TTY      TIME CMD" has two, "a b" has no other gap.
func singleGaps(header string) int {
	n := 0
	h := strings.TrimSpace(header)
	for i := 1; i+1 < len(h); i++ {
		if h[i] == ' ' && h[i-1] != ' ' && h[i+1] != ' ' {
			n++
		}
	}
	return n
}

func restHint(tooMany bool) string {
	if tooMany {
		return " (last: rest lets the last column hold spaces)"
	}
	return ""
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// dashRule says whether s is a rule of runs of dashes, one a column, as
// sacct and exiqsumm draw under their header: two runs or more, one of
// three dashes or more (a row of "-" values, each no value, is a row).
// One run alone is psql's rule (psqlRuleLine), said as a problem.
func dashRule(s string) bool {
	f := blankFields(s)
	long := false
	for _, x := range f {
		if strings.Trim(x, "-") != "" {
			return false
		}
		long = long || len(x) >= 3
	}
	return len(f) >= 2 && long
}

// equalsRule says whether s is a rule of "=" alone, as ntpq -p and chronyc
// sources draw under their header (TestRuleOfEqualsUnderTheHeaderIsNoRow).
func equalsRule(s string) bool {
	t := strings.TrimSpace(s)
	return len(t) >= 3 && strings.Trim(t, "=") == ""
}

// span is a word of a line and the display columns it takes, [start, end).
type span struct {
	start, end int
	text       string
}

// words is the words of s (runs of non-spaces) with the display columns
// each takes.
func words(s string) []span {
	var out []span
	col, start := 0, -1
	var b strings.Builder
	for _, r := range s {
		if r == ' ' {
			if start >= 0 {
				out = append(out, span{start, col, b.String()})
				start = -1
				b.Reset()
			}
			col++
			continue
		}
		if start < 0 {
			start = col
		}
		b.WriteRune(r)
		col += display.Width(string(r))
	}
	if start >= 0 {
		out = append(out, span{start, col, b.String()})
	}
	return out
}

// hiddenBlank says whether a row that has a value for every one of the
// header's n names holds nothing under one of them (only spaces there, the
// row going on past it; from where the name before it ends to where the
// name after it begins), while the value the split keys by that name lies
// under a later name: the tool left the cell blank and a later value holds
// spaces, so the count came out right and every value after the blank one
// was keyed one column off. lastlog prints "**Never logged in**" under
// "Latest" with Port and From blank, four words under four names, and was
// read as Port "**Never", From "logged", Latest "in**"; a local login's
// row (no From) under last: rest put its weekday in From. It gives the
// blank name and the value keyed by it. A header offset from its rows
// (/proc/net/unix) has some value under every name, and a value pushed
// right by a wider one before it (ps) still reaches its own name or lies
// under none, or leaves the end of the name before it taken (vmstat's
// "cs" blank and its value under "us", each value after an 8-digit free
// pushed right), so neither is judged; nor is the first name, nor a line
// with a tab, whose columns have no one width.
func hiddenBlank(row, header string, n int, rest bool) (blank, value, under string, ok bool) {
	if strings.ContainsRune(row, '\t') || strings.ContainsRune(header, '\t') {
		return "", "", "", false
	}
	hw, rw := words(header), words(row)
	if len(hw) < n || len(rw) < n || (len(hw) > n && !rest) {
		return "", "", "", false
	}
	names := hw[:n]
	if len(hw) > n {
		last := hw[n-1]
		last.end = hw[len(hw)-1].end
		names[n-1] = last
	}
	rowEnd := rw[len(rw)-1].end
	holds := func(a, b int) bool {
		for _, w := range rw {
			if w.start < b && w.end > a {
				return true
			}
		}
		return false
	}
	for j := 1; j < n-1; j++ {
		// Blank from where the name before ends to (a column short of)
		// where the name after begins: a cell the tool left empty, the
		// padding on both sides of it too. lastlog begins its values a
		// column left of "Latest". A value pushed right by a wider one
		// before it (vmstat's 8-digit free) leaves its own name blank but
		// not the end of the name before, where the value before it lies.
		// A value before it that stands under its own name may run on
		// past that name's end (lastlog's "systemd-timesync" under
		// "Username"): the blank begins after it.
		h, p, prev := names[j], names[j-1], rw[j-1]
		from, to := p.end, max(names[j+1].start-1, h.end)
		if prev.start < p.end && prev.end > p.start {
			from = max(from, prev.end)
		}
		if from >= to || holds(h.start, h.end) || holds(from, to) || rowEnd <= to {
			continue
		}
		v := rw[j]
		for _, k := range names[j+1:] {
			if v.start < k.end && v.end > k.start {
				return strings.TrimSpace(h.text), v.text, k.text, true
			}
		}
	}
	return "", "", "", false
}

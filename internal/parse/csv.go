package parse

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// table is `csv` and `tsv`: a list of objects, one per record, keyed by
// the header record (RFC 4180 quoting, by encoding/csv; tsv is the same
// with a tab between fields).
//
//	sep      csv's separator, one character (default ","): a spreadsheet
//	         saved where the decimal point is a comma (de_DE, fr_FR) writes
//	         fields between ";", /etc/passwd between ":"
//	header   false: there is no header record; names key the fields
//	names    the field names; with a header record, it is read past and names key the fields
//	         (a header read past that holds a number is a problem: a record where the header was)
//	numbers  false keeps every value a string
//
// A record with the wrong number of fields, or quoting encoding/csv
// refuses, is a problem. A header naming a field twice keys the second
// "NAME_2". A record that repeats the header (two files concatenated) is
// passed over: it holds the names, no values.
type table struct {
	comma   rune
	header  bool
	names   []string
	numbers valuer
}

// separator is csv's sep: one character that is not a quote, a line end
// or a blank at the start of a field encoding/csv would read as one.
func (o opts) separator() (rune, error) {
	sep, given, err := o.string("sep")
	if err != nil || !given {
		return ',', err
	}
	r, size := utf8.DecodeRuneInString(sep)
	switch {
	case sep == "" || size != len(sep):
		return 0, fmt.Errorf("parse mode csv: sep %q is not one character: give the one that stands between the fields, such as \";\" (a spreadsheet saved in de_DE or fr_FR) or \":\" (/etc/passwd)", sep)
	case r == '"' || r == '\r' || r == '\n' || r == utf8.RuneError:
		return 0, fmt.Errorf("parse mode csv: sep %q cannot separate fields: it quotes them or ends a record", sep)
	}
	return r, nil
}

func newCSV(o opts, comma rune) (parser, error) {
	p := &table{comma: comma}
	var err error
	if p.header, p.names, err = o.header(); err != nil {
		return nil, err
	}
	if p.numbers, err = o.valuer(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *table) parse(text string, r *recorder) any {
	if webPage(text, r) {
		return []any{}
	}
	cr := csv.NewReader(strings.NewReader(text))
	cr.Comma = p.comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	all := lines(text)
	lineText := func(n int) string {
		if n >= 1 && n <= len(all) {
			return all[n-1]
		}
		return ""
	}
	names := p.names
	headerDue := p.header
	var header []string
	out := []any{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line := pe.StartLine
				r.problem(line, lineText(line), pe.Err.Error())
				continue
			}
			r.problem(0, "", err.Error())
			break
		}
		line, _ := cr.FieldPos(0)
		if blankRecord(rec, headerDue) || (headerDue && len(rec) == 1 && rabbitmqBanner(rec[0])) {
			continue
		}
		if j := slices.IndexFunc(rec, func(f string) bool { return strings.Contains(f, "\r") }); j >= 0 {
			// encoding/csv ends a record at a line feed only (and drops
			// the \r of a \r\n), so lines ended by \r alone, as Excel for
			// Mac's "CSV (Macintosh)" writes them, were one record: the
			// header, and no rows.
			r.problem(line, lineText(line), fmt.Sprintf("field %d holds a carriage return that ends no \\r\\n: the text's lines end in \\r alone (Excel for Mac's \"CSV (Macintosh)\"), which this mode does not read as line ends, so its records would run together; convert them first (tr '\\r' '\\n')", j+1))
			continue
		}
		if p.comma == '\t' {
			if j := slices.IndexFunc(rec, func(f string) bool { return strings.Contains(f, "\n") }); j >= 0 {
				// TSV as sqlite3 -separator, psql's COPY and mysql -B write
				// it has no quoting: a field that is a lone `"` opened a
				// quoted field that swallowed the lines after it, and the
				// records on them (a failed job) were gone, unsaid.
				r.problem(line, lineText(line), fmt.Sprintf("field %d opens a quote that runs past the line's end, and a tsv field holds no line end: the lines after it would be read as part of one field, not as their records (a tsv writer with no quoting, as sqlite3 -separator, psql's COPY or mysql -B, leaves a \" in a value as it is)", j+1))
				continue
			}
		}
		if headerDue {
			headerDue = false
			header = rec
			if names != nil {
				if msg, ok := valueReadPast(rec); ok {
					r.problem(line, lineText(line), msg)
				}
			}
			if names == nil {
				names = unique(rec, r, line, lineText(line))
			}
			continue
		}
		if header != nil && slices.Equal(rec, header) {
			// The header again (files concatenated, a loop that printed
			// one table per host): names, no values; read as a record it
			// was a subject named "name".
			continue
		}
		if len(rec) == 1 {
			if why := psqlFooter(rec[0]); why != "" {
				r.problem(line, lineText(line), why)
				continue
			}
		}
		if len(rec) != len(names) {
			r.problem(line, lineText(line), fmt.Sprintf("%d %s, the header has %d", len(rec), plural(len(rec), "field"), len(names)))
			continue
		}
		obj := make(map[string]any, len(names))
		for j, n := range names {
			obj[n] = p.numbers.of(rec[j])
		}
		out = append(out, obj)
	}
	return out
}

// blankRecord is a record that is a blank line, as every mode passes
// over: one field of nothing but spaces. Before the header (headerDue), a
// record of several such fields (a line of tabs, in tsv) is one too, as
// it names no column. After it, separators make a record: sqlite3 -csv
// prints a row of NULLs as ",", a left join's day with no partition, and
// passed over, the missing day was no row and every day read present.
func blankRecord(rec []string, headerDue bool) bool {
	if len(rec) > 1 && !headerDue {
		return false
	}
	for _, f := range rec {
		if !blank(f) {
			return false
		}
	}
	return true
}

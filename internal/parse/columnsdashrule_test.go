package parse

import (
	"strings"
	"testing"
)

// TestRuleOfDashesUnderTheHeaderIsNoRow: Slurm's sacct and exim's exiqsumm
// draw a rule of dashes under their header, one run of
// dashes a column, and parse: columns read it as a row whose every value
// was dashes. sacct over a day no job ran prints its header and that rule
// alone, and a chart asking whether the nightly job ran (`len(jobs) ==
// 0`: missing) read one job, OK. The rule right under the header is
// passed over now, as ntpq's rule of "=" is; one anywhere else is still
// a problem.
func TestRuleOfDashesUnderTheHeaderIsNoRow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		rows       int
	}{
		{"sacct, no job", "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n" +
			"------------ ---------- ---------- ---------- ---------- ---------- -------- \n", 0},
		{"sacct, one job", "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode \n" +
			"------------ ---------- ---------- ---------- ---------- ---------- -------- \n" +
			"4242             backup      batch       ops          1     FAILED      1:0 \n", 1},
	} {
		res, err := Parse(tc.text, Spec{Mode: "columns"})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := res.Value.([]any)
		if len(rows) != tc.rows {
			t.Errorf("%s: %d rows %#v; want %d, the rule no row", tc.name, len(rows), rows, tc.rows)
		}
		for _, r := range rows {
			for k, v := range r.(map[string]any) {
				if s, ok := v.(string); ok && strings.Trim(s, "-") == "" && s != "" {
					t.Errorf("%s: %s is %q, a rule read as a value", tc.name, k, s)
				}
			}
		}
	}
	// a row whose values are each "-" (no value) is a row: only a rule
	// of runs of dashes right under the header is passed over
	res, _ := Parse("A B\n- -\n", Spec{Mode: "columns"})
	if rows, _ := res.Value.([]any); len(rows) != 1 || res.Problems != 0 {
		t.Errorf("a row of single dashes: %d rows, %d problems (%s); want it a row", len(rows), res.Problems, res.FirstProblem)
	}
}

// TestRuleAboveATotalIsNotCalledPsqls: exiqsumm draws a rule of dashes
// between its domains and its TOTAL row, and parse: columns said of it
// "psql's rule under an aligned table's header", of a table psql never
// printed, under no header. It is still a problem (the TOTAL row below
// it is a row the chart must tell from the domains), said as what it is.
func TestRuleAboveATotalIsNotCalledPsqls(t *testing.T) {
	t.Parallel()
	exiqsumm := "\nCount  Volume  Oldest  Newest  Domain\n-----  ------  ------  ------  ------\n\n" +
		"    2     540      6m      6m  example.invalid\n" +
		"---------------------------------------------------------------\n" +
		"    2     540      6m      6m  TOTAL\n\n"
	res, err := Parse(exiqsumm, Spec{Mode: "columns"})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := res.Value.([]any)
	if res.Problems != 1 || strings.Contains(res.FirstProblem, "psql") || !strings.Contains(res.FirstProblem, "between the rows") {
		t.Errorf("exiqsumm: %d problems (%s); want 1, a rule between the rows, not psql's", res.Problems, res.FirstProblem)
	}
	if len(rows) != 2 {
		t.Errorf("exiqsumm: rows %#v; want the domain and the TOTAL", rows)
	}
	res, _ = Parse("relname\n-------\nt\n", Spec{Mode: "columns"})
	if !strings.Contains(res.FirstProblem, "psql's rule") {
		t.Errorf("psql's rule under the header: %s; want it called psql's", res.FirstProblem)
	}
}

// TestRuleUnderAWideHeaderIsNotCalledPsqls: smbstatus draws a rule of
// dashes alone under each table's header of several columns, and parse:
// columns called it "psql's rule under an aligned table's header" and
// said to read psql's --csv. psql parts its columns' rules with a +, so
// a rule of dashes alone under several columns is no psql's: it is still
// a problem, said as a rule under the header.
func TestRuleUnderAWideHeaderIsNotCalledPsqls(t *testing.T) {
	t.Parallel()
	smbstatus := "\nLocked files:\nPid          User(ID)   DenyMode   Access      R/W        Oplock           SharePath   Name   Time\n" +
		"--------------------------------------------------------------------------------------------------\n"
	res, _ := Parse(smbstatus, Spec{Mode: "columns", Options: map[string]any{"skip": 2}})
	if res.Problems != 1 || strings.Contains(res.FirstProblem, "psql's rule") || !strings.Contains(res.FirstProblem, "a rule of dashes under the header") {
		t.Errorf("smbstatus: %d problems (%s); want 1, a rule under the header, not psql's", res.Problems, res.FirstProblem)
	}
	res, _ = Parse(" relname | n\n---------+---\n t       | 1\n", Spec{Mode: "columns"})
	if !strings.Contains(res.FirstProblem, "psql's rule") {
		t.Errorf("psql's rule of two columns: %s; want it called psql's", res.FirstProblem)
	}
}

// TestBoxedTableSaysItIsBoxed: etcdctl endpoint status -w table (3.4.23)
// draws its table in a box; columns took the top border for the header
// and said of every row only "28 fields, the table has 1 columns". The
// first problem names the box and what to read instead.
func TestBoxedTableSaysItIsBoxed(t *testing.T) {
	t.Parallel()
	table := "+-----------------+------------------+---------+\n" +
		"|    ENDPOINT     |        ID        | VERSION |\n" +
		"+-----------------+------------------+---------+\n" +
		"| 127.0.0.1:33800 | f837b67087200551 |  3.4.23 |\n" +
		"+-----------------+------------------+---------+\n"
	res, _ := Parse(table, Spec{Mode: "columns"})
	if res.Problems == 0 || !strings.Contains(res.FirstProblem, "a box's border") || !strings.Contains(res.FirstProblem, "etcdctl -w json") {
		t.Errorf("%d problems, first %q; want the box named first", res.Problems, res.FirstProblem)
	}
	res, _ = Parse(" relname | n\n---------+---\n t       | 1\n", Spec{Mode: "columns"})
	if strings.Contains(res.FirstProblem, "box") {
		t.Errorf("psql's aligned table called boxed: %s", res.FirstProblem)
	}
}

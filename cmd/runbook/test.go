package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/runbook/charttest"
)

// testFlags are `runbook test`'s flags.
type testFlags struct {
	format      string
	run         string
	update      bool
	coverage    bool
	coverageMin float64
}

// testFormats are the -o values test accepts.
var testFormats = []string{"text", "json", "junit"}

func newTestCmd(stdout, stderr io.Writer) *cobra.Command {
	var f testFlags
	cmd := &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run charts' test cases on stubbed commands and plugins",
		Long: `test runs the cases of chart test files (*_test.yaml; a folder is searched
recursively, PATH/... too; no PATH is the current folder). Each case runs
its chart on stubs: a stubbed exec stage files the stub's stdout and exit as
its process's, so labels, exit codes, parse modes, coverage and the standing
behave as in a real run (a read: stage reads its stubbed files:, a plugin
stage answers its stub); a stage a case reaches with no stub fails the case
(tests never run real commands or read real files, unless the case lists
the stage under real:).
The format of test files: docs/TESTING.md.

Output: one line per case (ok or FAIL, file, case, time), each mismatch of a
failed case with what was expected and what the run gave (a row diff for
verdicts), then "N passed, M failed". -o json prints one object per case
and a summary; -o junit prints JUnit XML for CI systems.

--update rewrites each case's expect from what its run produced (status,
verdicts, standing, reasons; exit, rowsTotal and line where given), keeping
the file's comments and order, then runs the cases again.

--coverage adds, per chart and per decider, each rule and default matched,
evaluated or never reached by any case, and the branches no case took.
--coverage-min P fails when fewer than P percent of rules and defaults
were matched.

Exit codes: 0 every case passed, 1 a case failed (or coverage was below
--coverage-min, or --run matched no case), 2 bad usage or a test file or
chart that does not load.`,
		Example: `  runbook test ./examples/...
  runbook test examples/disk --run 'nearly full' -o junit > report.xml
  runbook test . --coverage --coverage-min 80`,
		RunE: func(cmd *cobra.Command, a []string) error {
			return testCharts(cmd.Context(), a, f, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.format, "format", "o", "text", "output `format`: "+strings.Join(testFormats, ", "))
	fl.StringVar(&f.run, "run", "", "run only the cases whose name matches `REGEX`")
	fl.BoolVar(&f.update, "update", false, "rewrite each case's expect from what its run produced")
	fl.BoolVar(&f.coverage, "coverage", false, "print each decider's rule coverage")
	fl.Float64Var(&f.coverageMin, "coverage-min", 0, "fail when fewer than `P` percent of rules and defaults were matched")
	return cmd
}

// testCharts is `runbook test`.
func testCharts(ctx context.Context, paths []string, f testFlags, stdout, stderr io.Writer) error {
	if !contains(testFormats, f.format) {
		return &usageError{err: fmt.Errorf("--format %q: want one of %s", f.format, strings.Join(testFormats, ", ")), showUsage: true}
	}
	if f.coverageMin < 0 || f.coverageMin > 100 {
		return &usageError{err: fmt.Errorf("--coverage-min %v: want a percentage from 0 to 100", f.coverageMin), showUsage: true}
	}
	var opts []charttest.Option
	if f.run != "" {
		re, err := regexp.Compile(f.run)
		if err != nil {
			return &usageError{err: fmt.Errorf("--run %q: %v", f.run, err)}
		}
		opts = append(opts, charttest.Match(re))
	}
	files, err := testFiles(paths)
	if err != nil {
		return exit(exitUsage, "%v", err)
	}
	if len(files) == 0 {
		if len(paths) == 0 {
			paths = []string{"."}
		}
		return exit(exitUsage, "no test files (*_test.yaml) in %s", strings.Join(paths, ", "))
	}
	loadFailed := false
	var results []*charttest.FileResult
	var notLoaded []unloaded
	for _, path := range files {
		var why strings.Builder
		tf, ok := loadTest(path, io.MultiWriter(stderr, &why))
		if !ok {
			loadFailed = true
			notLoaded = append(notLoaded, unloaded{File: path, Errors: strings.Split(strings.TrimSuffix(why.String(), "\n"), "\n")})
			continue
		}
		res := tf.Run(ctx, opts...)
		if f.update {
			if res, ok = updateTest(ctx, tf, res, opts, stderr); !ok {
				loadFailed = true
				continue
			}
		}
		results = append(results, res)
	}
	covs := coverages(results)
	var err2 error
	switch f.format {
	case "json":
		err2 = printTestJSON(stdout, results, covs, f.coverage, notLoaded)
	case "junit":
		err2 = printTestJUnit(stdout, results, notLoaded)
	default:
		err2 = printTestText(stdout, results, covs, f.coverage, notLoaded)
	}
	if err2 != nil {
		return exit(exitFailed, "writing the result: %v", err2)
	}
	switch {
	case loadFailed:
		return quietExit(exitUsage)
	case failedCases(results) > 0:
		return quietExit(exitFailed)
	case f.run != "" && ranCases(results) == 0:
		// "0 passed, 0 failed" over a --run that names no case (a typo,
		// a case renamed) would be a green gate that tested nothing.
		return exit(exitFailed, "--run %q matches no case of %s: nothing was tested", f.run, plural(len(files), "the test file", fmt.Sprintf("the %d test files", len(files))))
	}
	if f.coverageMin > 0 {
		if p := totalPercent(covs); p < f.coverageMin {
			return exit(exitFailed, "rule coverage %.1f%% is below --coverage-min %v%%", p, f.coverageMin)
		}
	}
	return nil
}

// testFiles are the test files paths name: a file as it is, a folder (or
// DIR/...) searched for *_test.yaml, in sorted order, each once.
func testFiles(paths []string) ([]string, error) {
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var out []string
	for _, p := range paths {
		p = strings.TrimSuffix(p, "/...")
		if p == "..." || p == "" {
			p = "."
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, unwrapPathErr(err))
		}
		if !fi.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), "_test.yaml") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(p string) bool {
		c := filepath.Clean(p)
		dup := seen[c]
		seen[c] = true
		return dup
	}), nil
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// loadTest loads a test file, printing every error of it (or its chart)
// on stderr, one a line.
func loadTest(path string, stderr io.Writer) (*charttest.File, bool) {
	tf, err := charttest.Load(path)
	if err != nil {
		printLoadError(stderr, path, err)
		return nil, false
	}
	return tf, true
}

// updateTest writes the file's updated expectations and runs it again, so
// what is reported is the file as it now stands.
func updateTest(ctx context.Context, tf *charttest.File, res *charttest.FileResult, opts []charttest.Option, stderr io.Writer) (*charttest.FileResult, bool) {
	old, err := os.ReadFile(tf.Path)
	if err != nil {
		fmt.Fprintf(stderr, "runbook: %s: %v\n", tf.Path, err)
		return nil, false
	}
	updated := tf.Update(res)
	if bytes.Equal(old, updated) {
		return res, true
	}
	if err := os.WriteFile(tf.Path, updated, 0o644); err != nil {
		fmt.Fprintf(stderr, "runbook: %s: %v\n", tf.Path, err)
		return nil, false
	}
	fmt.Fprintf(stderr, "updated %s%s\n", tf.Path, rewroteFailing(res))
	again, ok := loadTest(tf.Path, stderr)
	if !ok {
		return nil, false
	}
	return again.Run(ctx, opts...), true
}

// rewroteFailing names the cases --update rewrote that had failed: each
// now expects what its run gave, which is the chart's answer and not
// always the right one, and the ok printed after says nothing of it. A
// run of --update over a case failing on a chart's mistake printed only
// "updated FILE" and every case ok (TestUpdateNamesTheFailedCasesItRewrote).
func rewroteFailing(res *charttest.FileResult) string {
	var names []string
	for _, cr := range res.Cases {
		if !cr.Passed() && cr.Record != nil {
			names = append(names, strconv.Quote(cr.Case.Name))
		}
	}
	switch len(names) {
	case 0:
		return ""
	case 1:
		return ": the case " + names[0] + " failed and now expects what its run gave; review the diff (a case that failed on a mistake of the chart now expects the mistake)"
	}
	return fmt.Sprintf(": %d cases failed and now expect what their runs gave (%s); review the diff (a case that failed on a mistake of the chart now expects the mistake)", len(names), strings.Join(names, ", "))
}

func failedCases(rs []*charttest.FileResult) int {
	n := 0
	for _, r := range rs {
		n += r.Failed()
	}
	return n
}

func countCases(rs []*charttest.FileResult) int {
	n := 0
	for _, r := range rs {
		n += len(r.Cases)
	}
	return n
}

// coverages is the rule coverage of each chart tested, over every case of
// every file that tests it, in the order the charts were first tested.
func coverages(rs []*charttest.FileResult) []*charttest.Coverage {
	var order []string
	recs := map[string][]*record.Record{}
	files := map[string]*charttest.File{}
	for _, r := range rs {
		c := filepath.Clean(r.File.Chart)
		if _, ok := files[c]; !ok {
			order = append(order, c)
			files[c] = r.File
		}
		for _, cr := range r.Cases {
			recs[c] = append(recs[c], cr.Record)
		}
	}
	out := make([]*charttest.Coverage, len(order))
	for i, c := range order {
		out[i] = charttest.CoverageOf(c, files[c].Runbook().Chart().Describe(), recs[c])
	}
	return out
}

func totalPercent(covs []*charttest.Coverage) float64 {
	all := charttest.Coverage{}
	for _, c := range covs {
		all.Matched += c.Matched
		all.Total += c.Total
	}
	return all.Percent()
}

func printTestText(w io.Writer, rs []*charttest.FileResult, covs []*charttest.Coverage, coverage bool, notLoaded []unloaded) error {
	var b strings.Builder
	for _, r := range rs {
		for _, cr := range r.Cases {
			word := "ok  "
			if !cr.Passed() {
				word = "FAIL"
			}
			fmt.Fprintf(&b, "%s  %s  %s  (%.2fs)\n", word, r.File.Path, cr.Case.Name, cr.Duration.Seconds())
			for _, fl := range cr.Failures {
				b.WriteString(indent(fl.String(), "    ") + "\n")
			}
		}
	}
	if coverage {
		for _, c := range covs {
			writeCoverage(&b, c)
		}
	}
	fmt.Fprintf(&b, "%d passed, %d failed", countCases(rs)-failedCases(rs), failedCases(rs))
	if n := len(notLoaded); n > 0 {
		files := make([]string, n)
		for i, u := range notLoaded {
			files[i] = u.File
		}
		fmt.Fprintf(&b, ", %d %s did not load, its cases not run (%s)", n, plural(n, "test file", "test files"), strings.Join(files, ", "))
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func indent(s, pad string) string {
	return pad + strings.ReplaceAll(s, "\n", "\n"+pad)
}

func writeCoverage(b *strings.Builder, c *charttest.Coverage) {
	fmt.Fprintf(b, "coverage of %s: %d of %d rules and defaults matched (%.1f%%)\n", c.Chart, c.Matched, c.Total, c.Percent())
	for _, d := range c.Deciders {
		fmt.Fprintf(b, "  %s\n", d.Path)
		for _, r := range d.Rules {
			name := fmt.Sprintf("rule %d", r.Number)
			if r.Default {
				name = "default"
			}
			label := ""
			if r.Label != "" {
				label = fmt.Sprintf(" %q", r.Label)
			}
			state := r.State
			if r.Err != "" {
				state += " (its predicate could not be evaluated: " + r.Err + ")"
			}
			fmt.Fprintf(b, "    %-8s → %s%s: %s\n", name, r.Then, label, state)
		}
		if len(d.NeverTaken) > 0 {
			fmt.Fprintf(b, "    branches never taken: %s\n", strings.Join(d.NeverTaken, ", "))
		}
	}
}

// testCaseJSON is one case in -o json.
type testCaseJSON struct {
	File     string            `json:"file"`
	Case     string            `json:"case"`
	Passed   bool              `json:"passed"`
	Seconds  float64           `json:"seconds"`
	Status   string            `json:"status,omitempty"`
	Exit     int               `json:"exit"`
	Failures []testFailureJSON `json:"failures"`
}

type testFailureJSON struct {
	Key      string        `json:"key"`
	At       string        `json:"at,omitempty"`
	Message  string        `json:"message,omitempty"`
	Expected any           `json:"expected,omitempty"`
	Actual   any           `json:"actual,omitempty"`
	Rows     []testRowJSON `json:"rows,omitempty"`
}

type testRowJSON struct {
	Op  string     `json:"op"` // "=", "-", "+"
	Row record.Row `json:"row"`
}

type testSummaryJSON struct {
	Passed   int                   `json:"passed"`
	Failed   int                   `json:"failed"`
	Coverage []*charttest.Coverage `json:"coverage,omitempty"`
	// NotLoaded are the test files that did not load: none of their
	// cases ran, so "0 failed" is not "they passed".
	NotLoaded []unloaded `json:"notLoaded,omitempty"`
}

// unloaded is a test file that did not load, with its errors as printed.
type unloaded struct {
	File   string   `json:"file"`
	Errors []string `json:"errors"`
}

func posText(p chart.Pos) string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

func printTestJSON(w io.Writer, rs []*charttest.FileResult, covs []*charttest.Coverage, coverage bool, notLoaded []unloaded) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range rs {
		for _, cr := range r.Cases {
			o := testCaseJSON{File: r.File.Path, Case: cr.Case.Name, Passed: cr.Passed(), Seconds: cr.Duration.Seconds(), Exit: cr.Exit, Failures: []testFailureJSON{}}
			if cr.Record != nil {
				o.Status = cr.Record.Status
			}
			for _, fl := range cr.Failures {
				fj := testFailureJSON{Key: fl.Key, At: posText(fl.Pos), Message: fl.Msg, Expected: fl.Expected, Actual: fl.Actual}
				for _, d := range fl.Rows {
					op := string(d.Op)
					if d.Op == ' ' {
						op = "="
					}
					fj.Rows = append(fj.Rows, testRowJSON{Op: op, Row: d.Row})
				}
				o.Failures = append(o.Failures, fj)
			}
			if err := enc.Encode(o); err != nil {
				return err
			}
		}
	}
	s := testSummaryJSON{Passed: countCases(rs) - failedCases(rs), Failed: failedCases(rs), NotLoaded: notLoaded}
	if coverage {
		s.Coverage = covs
	}
	return enc.Encode(s)
}

// JUnit XML: one testsuite per test file, one testcase per case.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr,omitempty"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr,omitempty"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Error     *junitFailure `xml:"error,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// A test file that did not load is a suite of one case in error (JUnit's
// errors, beside failures): a report of the files that loaded alone said
// tests="0" failures="0" over a test file with one typo, which a CI server
// reading the report showed green.
func printTestJUnit(w io.Writer, rs []*charttest.FileResult, notLoaded []unloaded) error {
	all := junitSuites{Name: "runbook test", Tests: countCases(rs), Failures: failedCases(rs)}
	var total float64
	for _, r := range rs {
		s := junitSuite{Name: r.File.Path, Tests: len(r.Cases), Failures: r.Failed()}
		var t float64
		for _, cr := range r.Cases {
			jc := junitCase{Name: cr.Case.Name, Classname: r.File.Path, Time: fmt.Sprintf("%.3f", cr.Duration.Seconds())}
			t += cr.Duration.Seconds()
			if !cr.Passed() {
				var lines []string
				for _, fl := range cr.Failures {
					lines = append(lines, fl.String())
				}
				msg := fmt.Sprintf("%d expectation(s) not met", len(cr.Failures))
				jc.Failure = &junitFailure{Message: msg, Type: "expect", Text: strings.Join(lines, "\n")}
			}
			s.Cases = append(s.Cases, jc)
		}
		s.Time = fmt.Sprintf("%.3f", t)
		total += t
		all.Suites = append(all.Suites, s)
	}
	for _, u := range notLoaded {
		all.Tests++
		all.Errors++
		all.Suites = append(all.Suites, junitSuite{Name: u.File, Tests: 1, Errors: 1, Time: "0.000", Cases: []junitCase{{
			Name: "the test file loads", Classname: u.File, Time: "0.000",
			Error: &junitFailure{Message: "the test file did not load: none of its cases ran", Type: "load", Text: strings.Join(u.Errors, "\n")},
		}}})
	}
	all.Time = fmt.Sprintf("%.3f", total)
	out, err := xml.MarshalIndent(all, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, out)
	return err
}

// ranCases counts the cases run, over every file.
func ranCases(results []*charttest.FileResult) int {
	n := 0
	for _, r := range results {
		n += len(r.Cases)
	}
	return n
}

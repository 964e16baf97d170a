package charttest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/openrunbook/runbook/plugins/assessment"
)

// TestOneMisspeltMemberIsNoConfidentAnswer misspells one member an
// expression reads, one at a time, in the wave charts (charts new users
// wrote for real tools, each with its tests), and runs each chart's cases
// on the misspelt chart: a misspelling that changes a case's answer (its
// verdict rows, its Nagios state) while the run stands Consistent or
// Known is the worst bug this project can have, a confident wrong answer
// from one typo. The misspelling must be refused when the chart loads,
// fail the run, or leave it Not sure.
//
// A sweep of this kind found each of these, since judged: a member an
// exec stage's result never holds (`st.stdut ?? []`, chart
// TestResultMemberNoStageWritesIsRefused), a member read past a pair's
// index (`#[1].admin_helth`), on a call's result (`first(filter(…)).valu`)
// or after a computed key (`sh[a.user].kid`), and one inside the key of a
// nil test (`sh[a.usr] == nil`) (rules TestPredicateMemberPastAnIndexIsJudged,
// TestMemberOfACallsResultIsJudged, TestGuardCoversNoIndexInside).
//
// A member read under a guard (`x.k ?? d`, `x?.k`, `x.k == nil`), which
// says the member may be absent, is written in another case instead
// (`x.K ?? d`): absence is the answer the author asked for, but not a
// member there under another name's case (rules
// TestGuardedMemberInAnotherCaseIsATypo); a letter dropped there is a
// design question (docs/CHARTS.md). Not misspelt here, by design: a
// member of an item's member in a builtin's
// predicate (`.status.reason`), which JSON writers leave out of every
// item alike; and text inside quotes (a label, a literal). Each chart
// gives at most sitesPerChart members, picked by a hash of the chart's
// path and the member's place, so a run is the same every time.
func TestOneMisspeltMemberIsNoConfidentAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every wave chart's cases once a misspelling")
	}
	t.Parallel()
	tests, err := filepath.Glob("../../testdata/wave-*/*/*_test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../../testdata/wave-*/*_test.yaml")
	tests = append(tests, more...)
	if len(tests) < 100 {
		t.Fatalf("found %d wave chart tests, want the hundreds testdata holds", len(tests))
	}
	mutants := 0
	for _, test := range tests {
		f, err := Load(test)
		if err != nil {
			continue // a test file that does not load is its own test's
		}
		base := answers(f.Run(context.Background()))
		chartPath := f.Chart
		src, err := os.ReadFile(chartPath)
		if err != nil {
			t.Fatal(err)
		}
		plain, guardedSites := memberSites(string(src))
		for _, s := range append(pick(chartPath, plain, sitesPerChart), pick(chartPath, guardedSites, sitesPerChart)...) {
			mutants++
			typo := misspell(s.name)
			if s.guarded {
				typo = otherCase(s.name)
			}
			dir := copyDir(t, filepath.Dir(test))
			mutated := string(src[:s.at]) + typo + string(src[s.at+len(s.name):])
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(chartPath)), []byte(mutated), 0o644); err != nil {
				t.Fatal(err)
			}
			mf, err := Load(filepath.Join(dir, filepath.Base(test)))
			if err != nil {
				continue // refused when the chart loads
			}
			for name, got := range answers(mf.Run(context.Background())) {
				want, ok := base[name]
				if !ok || !got.confident() || got.same(want) {
					continue
				}
				t.Errorf("%s:%d: %s misspelt %s: case %q answered %s where it answered %s, and stood %s",
					relTo(chartPath), s.line, s.name, typo, name, got.text(), want.text(), got.standing)
			}
		}
	}
	t.Logf("misspelt %d members of the wave charts, one at a time", mutants)
	if mutants < 200 {
		t.Errorf("misspelt %d members, want hundreds: the sweep found too few places to misspell", mutants)
	}
}

// sitesPerChart bounds the members misspelt in one chart.
const sitesPerChart = 3

// answer is what one case's run answered.
type answer struct {
	status, standing, nagios string
	rows                     string // the verdict rows, as JSON
}

func (a answer) confident() bool {
	return a.status == "completed" && (a.standing == string(assessment.Consistent) || a.standing == string(assessment.Known))
}

func (a answer) same(b answer) bool { return a.rows == b.rows && a.nagios == b.nagios }

func (a answer) text() string { return fmt.Sprintf("%s %s", a.nagios, a.rows) }

// answers are a file's cases' answers, by case name.
func answers(r *FileResult) map[string]answer {
	out := map[string]answer{}
	for _, c := range r.Cases {
		if c.Record == nil {
			continue
		}
		a := answer{status: c.Record.Status, nagios: c.Nagios}
		if as := c.Record.Assessment; as != nil {
			a.standing = string(as.Standing)
		}
		if vs := c.Record.Verdicts; vs != nil {
			b, _ := json.Marshal(vs.Rows)
			a.rows = string(b)
		}
		out[c.Case.Name] = a
	}
	return out
}

// site is a member an expression reads: its name, its byte offset in the
// chart, its line.
type site struct {
	name     string
	at, line int
	guarded  bool // read under a guard: misspelt in another case
}

var (
	// a member after a value (`x.name`, `f(x).name`, `x[0].name`), or
	// a quoted key in brackets (`x["ups.status"]`)
	memberAt = regexp.MustCompile(`[\w\])?]\.([A-Za-z_]\w{3,})|\[\s*"([A-Za-z_][\w.\-]{3,})"\s*\]`)
	// keys whose values are text, not expressions
	textKey = regexp.MustCompile(`(?:^|[\s{,])(label|description|name|help|title|remedy|why|note|command|shell|run|path|glob|url|pattern|regex|stderr|default|skip):`)
	// a key of a flow map, after which an expression may stand again
	anyKey = regexp.MustCompile(`\w:\s`)
	// the rest of a path after a member (members, indexes), then a guard
	guardAfter = regexp.MustCompile(`^(?:"\])?(?:\??\.\w+|\??\.?\[[^\]]*\])*\s*(\?\?|[!=]=\s*nil|\?\.)`)
	// a nil test right after a closing parenthesis, or before a path
	nilAfter  = regexp.MustCompile(`^[!=]=\s*nil`)
	nilBefore = regexp.MustCompile(`nil\s*[!=]=\s*[\w.\[\]"?]*$`)
)

// memberSites are the members an expression of the chart reads, as far
// as its text shows, those read under a guard apart, leaving out those
// the test does not misspell.
func memberSites(src string) (out, guardedSites []site) {
	offset := 0
	for i, line := range strings.SplitAfter(src, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			offset += len(line)
			continue
		}
		for _, m := range memberAt.FindAllStringSubmatchIndex(line, -1) {
			g := 2
			if m[2] < 0 {
				g = 4
			}
			start, end := m[g], m[g+1]
			if insideText(line, start) || nestedItemMember(line, start) {
				continue
			}
			s := site{name: line[start:end], at: offset + start, line: i + 1}
			if guarded(line, start, end) {
				s.guarded = true
				guardedSites = append(guardedSites, s)
				continue
			}
			out = append(out, s)
		}
		offset += len(line)
	}
	return out, guardedSites
}

// insideText says whether byte i of line is inside a quoted text of an
// expression (`"fs.suid_dumpable"`, but not the brackets' own `"`), or
// the value of a key holding text (a label).
func insideText(line string, i int) bool {
	if loc := textKey.FindAllStringIndex(line[:i], -1); len(loc) > 0 {
		// a text key before it, with no expression key after that
		rest := line[loc[len(loc)-1][1]:i]
		if !strings.ContainsAny(rest, "{}") && !anyKey.MatchString(rest) {
			return true
		}
	}
	quotes := 0
	for j := 0; j < i; j++ {
		switch {
		case line[j] == '\\':
			j++
		case line[j] == '"':
			quotes++
		}
	}
	// an open quote before it, unless it opens the bracket's key
	return quotes%2 == 1 && !(i >= 1 && line[i-1] == '"' && strings.HasSuffix(strings.TrimRight(line[:i-1], " "), "["))
}

// guarded says whether the member at line[start:end] is read under a
// guard: after ?. on its path, left of ??, or tested against nil.
func guarded(line string, start, end int) bool {
	before := strings.TrimRight(line[:start], `["`)
	if strings.HasSuffix(before, "?.") || strings.HasSuffix(before, "?.[") {
		return true
	}
	after := line[end:]
	if guardAfter.MatchString(after) {
		return true
	}
	// inside a (…) that ?? or a nil test follows, or a nil test before it
	open := strings.LastIndex(line[:start], "(")
	if open >= 0 {
		if closeAt := strings.Index(line[end:], ")"); closeAt >= 0 {
			tail := strings.TrimSpace(line[end+closeAt+1:])
			if strings.HasPrefix(tail, "??") || nilAfter.MatchString(tail) {
				return true
			}
		}
	}
	return nilBefore.MatchString(line[:start])
}

// nestedItemMember says whether the member at start is read from an
// item's member in a builtin's predicate (`.status.reason`,
// `#.content.name`, `.content[0].state`): not judged, by design.
func nestedItemMember(line string, start int) bool {
	j := start - 1 // the dot
	for j > 0 && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]?\"", rune(line[j-1])) {
		j--
	}
	chain := line[j:start]
	if !strings.HasPrefix(chain, ".") && !strings.HasPrefix(chain, "#.") {
		return false
	}
	return strings.Count(chain, ".") > 1 || strings.Contains(chain, "[")
}

// pick is at most n of sites, those first by a hash of file and place.
func pick(file string, sites []site, n int) []site {
	h := func(s site) uint32 {
		f := fnv.New32a()
		fmt.Fprintf(f, "%s:%d:%s", relTo(file), s.at, s.name)
		return f.Sum32()
	}
	out := slices.Clone(sites)
	slices.SortFunc(out, func(a, b site) int { return cmp.Compare(h(a), h(b)) })
	return out[:min(n, len(out))]
}

// misspell drops the letter in the middle of name: ups.status → ups.staus.
func misspell(name string) string {
	i := len(name) / 2
	if name[i] == '.' || name[i] == '_' {
		i++
	}
	return name[:i] + name[i+1:]
}

// otherCase writes name's first letter in the other case: operstate →
// Operstate, ups.status → Ups.status.
func otherCase(name string) string {
	r := []rune(name)
	if unicode.IsUpper(r[0]) {
		r[0] = unicode.ToLower(r[0])
	} else {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

// copyDir copies the folder of a test file (its chart, stubs' files,
// fixtures, and any folder below) to a new folder.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// relTo is path from the module's root, as a failure names it.
func relTo(path string) string {
	return strings.TrimPrefix(filepath.ToSlash(path), "../../")
}

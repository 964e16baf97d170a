package chart

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/rules"
)

func mustLoad(t *testing.T, path string) *Spec {
	t.Helper()
	spec, err := Load(path)
	if err != nil {
		t.Fatalf("Load(%s):\n%v", path, err)
	}
	return spec
}

// stageByID finds a stage anywhere in a stage tree (branches, foreach and
// inline subflow bodies), depth first.
func stageByID(stages []StageSpec, id string) *StageSpec {
	for i := range stages {
		s := &stages[i]
		if s.ID == id {
			return s
		}
		var kids [][]StageSpec
		for _, b := range append(append([]BranchSpec{}, s.Branches...), s.Parallel...) {
			kids = append(kids, b.Stages)
		}
		if s.ForEach != nil {
			kids = append(kids, s.ForEach.Stages)
		}
		if s.Subflow != nil {
			kids = append(kids, s.Subflow.Stages)
		}
		for _, k := range kids {
			if f := stageByID(k, id); f != nil {
				return f
			}
		}
	}
	return nil
}

func keys(as []Assign) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Key
	}
	return out
}

func srcs(as []Assign) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Expr.String()
	}
	return out
}

func branchNames(bs []BranchSpec) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.Name
	}
	return out
}

type check struct {
	name      string
	got, want any
}

func runChecks(t *testing.T, checks []check) {
	t.Helper()
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestLoadGoodDisk(t *testing.T) {
	t.Parallel()
	const file = "testdata/load/good/disk.yaml"
	s := mustLoad(t, file)
	collect := stageByID(s.Stages, "collect")
	shape := stageByID(s.Stages, "shape")
	each := stageByID(s.Stages, "per-volume")
	posture := stageByID(s.Stages, "posture")
	markR := stageByID(s.Stages, "mark-r")
	markD := stageByID(s.Stages, "mark-d")
	if collect == nil || shape == nil || each == nil || posture == nil || markR == nil || markD == nil {
		t.Fatal("a stage is missing from the loaded chart")
	}
	runChecks(t, []check{
		{"File", s.File, file},
		{"Version", s.Version, 1},
		{"Name", s.Name, "disk-triage"},
		{"Description", s.Description, "Classify every volume's protection posture"},
		{"Pos", s.Pos, Pos{File: file, Line: 1, Col: 1}},
		{"Honesty (not written: nil, all three)", s.Honesty, []string(nil)},
		{"inputs", len(s.Inputs), 2},
		{"input 0", s.Inputs[0], InputSpec{Name: "host", Type: "string", Required: true, Description: "host to inspect", Pos: Pos{file, 5, 3}}},
		{"input 1", s.Inputs[1], InputSpec{Name: "window", Type: "duration", Default: "2h", HasDefault: true, Description: "how far back to read", Pos: Pos{file, 6, 3}}},
		{"result kind", s.Result.Kind, "verdict/posture"},
		{"result decider", s.Result.Decider, "Protection posture"},
		{"result maxRows", s.Result.MaxRows, 20},
		{"result presentation", s.Result.Presentation, "panel"},
		{"result standingLine", s.Result.StandingLine, "unless-consistent"},
		{"result pos", s.Result.Pos, Pos{file, 7, 1}},
		{"result check", s.Result.Checks[0].Expr.String(), "len(verdicts) == len(volumes)"},
		{"result check src", s.Result.Checks[0].Src, "len(verdicts) == len(volumes)"},
		{"result check pos", s.Result.Checks[0].Pos, Pos{file, 13, 7}},
		{"stage ids", []string{s.Stages[0].ID, s.Stages[1].ID, s.Stages[2].ID}, []string{"collect", "shape", "per-volume"}},

		{"collect pos", collect.Pos, Pos{file, 16, 5}},
		{"collect kind", collect.Kind, "exec"},
		{"collect name", collect.Name, "Read the volumes"},
		{"collect timeout", collect.Timeout, 30 * time.Second},
		{"collect retry", *collect.Retry, RetrySpec{Attempts: 3, Backoff: 200 * time.Millisecond, MaxBackoff: 10 * time.Second, Jitter: true, On: []string{"1", "timeout"}}},
		{"exec command", collect.Exec.Command, []string{"df", "-P", "-k"}},
		{"exec timeout", collect.Exec.Timeout, 10 * time.Second},
		{"exec env (order)", collect.Exec.Env, []EnvVar{{"LC_ALL", "C"}, {"TZ", "UTC"}}},
		{"exec parse", collect.Exec.Parse, parse.Spec{Mode: "lines"}},
		{"exec into", collect.Exec.Into, "df"},

		{"shape name defaults to id", shape.Name, "shape"},
		{"set keys (order)", keys(shape.Set), []string{"volumes", "threshold", "strict"}},
		{"set srcs", srcs(shape.Set), []string{`filter(df.stdout, # != "")`, "90", "true"}},
		{"set literal is a Literal", fmt.Sprintf("%T", shape.Set[1].Expr), fmt.Sprintf("%T", rules.Literal(0))},
		{"set expr is an Expr", fmt.Sprintf("%T", shape.Set[0].Expr), "*rules.Expr"},
		{"set pos", shape.Set[1].Pos, Pos{file, 29, 18}},

		{"foreach items", each.ForEach.Items.String(), "volumes"},
		{"foreach as", each.ForEach.As, "volume"},
		{"foreach maxBranches", each.ForEach.MaxBranches, 64},
		{"foreach into", each.ForEach.Into, "results"},
		{"foreach stages", len(each.ForEach.Stages), 1},

		{"posture name", posture.Name, "Protection posture"},
		{"decide rules", len(posture.Decide.Rules), 2},
		{"rule 1 when", posture.Decide.Rules[0].When.String(), "volume.replicas < 1"},
		{"rule 1 then/label", []string{posture.Decide.Rules[0].Then, posture.Decide.Rules[0].Label}, []string{"unprotected", "No replica"}},
		{"rule 2 filter (written order)", posture.Decide.Rules[1].When.String(), `volume.used gt 90 and volume.state eq "degraded"`},
		{"rule 2 pos", posture.Decide.Rules[1].Pos, Pos{file, 45, 17}},
		{"default", posture.Decide.Default, decide.Default{Branch: "declined", Label: "No rule reached a verdict"}},
		{"branches (order)", branchNames(posture.Branches), []string{"unprotected", "at-risk", "declined"}},
		{"branch description", posture.Branches[1].Description, "Less than a tenth is free"},
		{"branch pos", posture.Branches[1].Pos, Pos{file, 51, 13}},
		{"verdict columns (order)", keys(markR.Verdict), []string{"subject", "verdict", "used"}},
		{"verdict srcs", srcs(markR.Verdict), []string{"volume.name", `"at-risk"`, "volume.used"}},
		{"verdict columns, verdict first", keys(markD.Verdict), []string{"verdict", "subject"}},
	})
	if _, ok := posture.Decide.Rules[1].When.(*rules.Filter); !ok {
		t.Errorf("rule 2 is %T, want *rules.Filter", posture.Decide.Rules[1].When)
	}
}

func TestLoadGoodKinds(t *testing.T) {
	t.Parallel()
	const file = "testdata/load/good/kinds.yaml"
	s := mustLoad(t, file)
	get := func(id string) *StageSpec {
		st := stageByID(s.Stages, id)
		if st == nil {
			t.Fatalf("stage %q not found", id)
		}
		return st
	}
	start, both, probe, sh := get("start"), get("both"), get("probe"), get("sh")
	pick, again, gate, retryGate, halt := get("pick"), get("again"), get("gate"), get("retry-gate"), get("halt")
	confirm, mounted, inline := get("confirm"), get("mounted"), get("inline")
	runChecks(t, []check{
		{"honesty", s.Honesty, []string{"label", "coverage"}},
		{"plugins", s.Plugins, []PluginSpec{
			{Name: "http-probe", Command: "./bin/runbook-plugin-http-probe", SHA256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", Pos: Pos{file, 5, 3}},
			{Name: "dns", Command: "./bin/dns", Pos: Pos{file, 6, 3}},
		}},
		{"set null literal", srcs(start.Set), []string{"0", `"hello"`, "null"}},
		{"parallel branches", branchNames(both.Parallel), []string{"left", "right"}},
		{"parallel branch description", both.Parallel[1].Description, "the shell side"},
		{"plugin name", probe.Plugin.Name, "http-probe"},
		{"plugin into defaults to id", probe.Plugin.Into, "probe"},
		{"plugin args (order)", keys(probe.Plugin.Args), []string{"url", "tries", "headers", "codes"}},
		{"plugin args", srcs(probe.Plugin.Args), []string{`"https://example.com"`, "3", `{"Accept":"text/html"}`, "[200,204]"}},
		{"shell", sh.Exec.Shell, "echo hi | tr a-z A-Z"},
		{"exec defaults", []any{sh.Exec.Timeout, sh.Exec.Parse, sh.Exec.Into}, []any{time.Duration(0), parse.Spec{Mode: "text"}, "sh"}},
		{"exec dir", sh.Exec.Dir, "/tmp"},
		{"exec stdin", sh.Exec.Stdin.Expr.String(), "greeting"},
		{"select kind", pick.Kind, "select"},
		{"select rules", []string{pick.Decide.Rules[0].When.String(), pick.Decide.Rules[1].When.String()}, []string{"attempt > 0", `greeting startsWith "he"`}},
		{"select branches", branchNames(pick.Branches), []string{"counted", "greeted"}},
		{"empty branch", len(pick.Branches[0].Stages), 0},
		{"loop", []any{again.Loop.To, again.Loop.While.String(), again.Loop.Max}, []any{"tick", "attempt < 3", 5}},
		{"block scalar rule", gate.Decide.Rules[0].When.String(), "attempt >= 3 &&\n  greeting != \"\"\n"},
		{"default shorthand", gate.Decide.Default, decide.Default{Branch: "stop"}},
		{"loop to enclosing decide, while false, max not given", []any{retryGate.Loop.To, retryGate.Loop.While.String(), retryGate.Loop.Max}, []any{"gate", "false", 0}},
		{"fail", halt.Fail.Expr.String(), `"gave up after " + string(attempt) + " attempts"`},
		{"ask question", confirm.Ask.Question.Expr.String(), `"Restart " + greeting + "?"`},
		{"ask expects (order)", confirm.Ask.Expects, []Expect{{"proceed", "bool"}, {"reason", "string"}, {"after", "duration"}}},
		{"subflow chart", mounted.Subflow.Chart, "sub/volume.yaml"},
		{"subflow spec", mounted.Subflow.Spec.Name, "volume-check"},
		{"subflow spec file", mounted.Subflow.Spec.File, "testdata/load/good/sub/volume.yaml"},
		{"subflow inputs", keys(mounted.Subflow.Inputs), []string{"volume", "limit"}},
		{"inline subflow stages", []string{inline.Subflow.Stages[0].ID, inline.Subflow.Stages[1].ID}, []string{"tick", "back"}},
		{"inline subflow inputs", srcs(inline.Subflow.Inputs), []string{"attempt"}},
	})
}

func TestLoadGoodInputs(t *testing.T) {
	t.Parallel()
	s := mustLoad(t, "testdata/load/good/inputs.yaml")
	type in struct {
		name, typ string
		def       any
		has       bool
		secret    bool
		required  bool
	}
	want := []in{
		{"name", "string", "web", true, false, false},
		{"count", "number", 2.5, true, false, false},
		{"dry", "bool", false, true, false, false},
		{"hosts", "list", []any{"a", "b"}, true, false, false},
		{"labels", "object", map[string]any{"app": "web", "tier": 1}, true, false, false},
		{"window", "duration", "90m", true, false, false},
		{"token", "string", nil, false, true, true},
	}
	if len(s.Inputs) != len(want) {
		t.Fatalf("%d inputs, want %d", len(s.Inputs), len(want))
	}
	for i, w := range want {
		g := s.Inputs[i]
		got := in{g.Name, g.Type, g.Default, g.HasDefault, g.Secret, g.Required}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("input %d = %#v, want %#v", i, got, w)
		}
	}
}

// TestLoadGoodAll loads every good chart (the schema test reads them too).
func TestLoadGoodAll(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/load/good/*.yaml")
	for _, f := range files {
		if _, err := Load(f); err != nil {
			t.Errorf("Load(%s):\n%v", f, err)
		}
	}
}

func TestLoadHugeFile(t *testing.T) {
	t.Parallel()
	big := make([]byte, MaxChartBytes+1)
	for i := range big {
		big[i] = '#'
	}
	path := filepath.Join(t.TempDir(), "huge.yaml")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + ": the file is larger than 10485760 bytes (10 MiB), the most a chart may be: split it into subflow charts"
	if _, err := Load(path); err == nil || err.Error() != want {
		t.Errorf("Load(huge) = %v\nwant %s", err, want)
	}
	if _, err := Parse("huge.yaml", big); err == nil || !strings.Contains(err.Error(), "10 MiB") {
		t.Errorf("Parse(huge) = %v, want the 10 MiB cap", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	t.Parallel()
	_, err := Load("testdata/load/nope.yaml")
	want := "testdata/load/nope.yaml: chart cannot be read: no such file or directory"
	if err == nil || err.Error() != want {
		t.Errorf("Load(missing) = %v, want %s", err, want)
	}
}

func TestParseResolvesSubflowsAgainstFile(t *testing.T) {
	t.Parallel()
	data := []byte("version: 1\nrunbook: r\nstages:\n  - id: m\n    subflow: {chart: sub/volume.yaml, inputs: {volume: '\"a\"'}}\n")
	s, err := Parse("testdata/load/good/virtual.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if sub := s.Stages[0].Subflow.Spec; sub == nil || sub.Name != "volume-check" {
		t.Errorf("subflow spec = %+v", sub)
	}
	// Without a file name, positions carry no file and paths resolve from ".".
	_, err = Parse("", []byte("version: 1\nrunbook: r\nstages: [{id: a, sett: {}}]\n"))
	if err == nil || err.Error() != `3:18: stage "a": unknown key "sett" in the stage; did you mean "set"?` {
		t.Errorf("Parse(\"\") = %v", err)
	}
}

func TestLoadErrorsAreSortedAndReachable(t *testing.T) {
	t.Parallel()
	_, err := Load("../testdata/bad/many-errors.yaml")
	var les LoadErrors
	if !errors.As(err, &les) {
		t.Fatalf("error %T is not LoadErrors", err)
	}
	for i := 1; i < len(les); i++ {
		a, b := les[i-1].Pos, les[i].Pos
		if a.Line > b.Line || (a.Line == b.Line && a.Col > b.Col) {
			t.Errorf("errors out of order: %v before %v", a, b)
		}
	}
	var le *LoadError
	if !errors.As(err, &le) || le.Stage != "bad-kind" {
		t.Errorf("errors.As(*LoadError) = %+v", le)
	}
}

func TestLoadErrorFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		e    LoadError
		want string
	}{
		{LoadError{Pos{"chart.yaml", 14, 7}, "posture", "rule 2: then \"at-risk\" names no branch (branches: unprotected, declined)"},
			`chart.yaml:14:7: stage "posture": rule 2: then "at-risk" names no branch (branches: unprotected, declined)`},
		{LoadError{Pos{"chart.yaml", 1, 1}, "", "version is missing"}, "chart.yaml:1:1: version is missing"},
		{LoadError{Pos{"chart.yaml", 0, 0}, "", "too big"}, "chart.yaml: too big"},
		{LoadError{Pos{"", 2, 3}, "x", "bad"}, `2:3: stage "x": bad`},
	}
	for _, tc := range tests {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// TestParseHostileInputs: alias bombs, deep nesting and odd scalars end in
// errors (or a chart), never a panic or a hang.
func TestParseHostileInputs(t *testing.T) {
	t.Parallel()
	var bomb strings.Builder
	bomb.WriteString("version: 1\nrunbook: r\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 12; i++ {
		fmt.Fprintf(&bomb, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	bomb.WriteString("stages:\n  - id: p\n    plugin: {name: x, args: {bomb: *a11}}\n")
	inputs := []string{
		bomb.String(),
		"version: 1\nrunbook: r\nstages:\n  - id: p\n    plugin: {name: x, args: {deep: " + strings.Repeat("[", 500) + strings.Repeat("]", 500) + "}}\n",
		"version: 1\nrunbook: r\nstages: &s [{id: a, subflow: {stages: *s}}]\n",
		"version: 1\nrunbook: r\nstages:\n  - id: a\n    <<: *nope\n",
		"!!map\n? [a]\n: b\n",
		"version: .inf\nrunbook: .nan\nstages: {a: b}\n",
		"version: 99999999999999999999999\nrunbook: ~\nstages: [{id: 1, set: {1: 2}}]\n",
	}
	for i, in := range inputs {
		if _, err := Parse(fmt.Sprintf("hostile-%d.yaml", i), []byte(in)); err == nil {
			t.Errorf("input %d loaded; want a refusal", i)
		}
	}
}

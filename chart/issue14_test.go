package chart

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/openrunbook/runbook/internal/golden"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// issue14Chart is a chart whose result block ends with nagios (NAGIOS is
// replaced by the lines given, indented under it).
const issue14Chart = `version: 1
runbook: nagios
result:
  kind: KIND
  nagios:
NAGIOS
stages:
  - id: a
    verdict: {subject: '"x"', verdict: '"at-risk"'}
`

func issue14Source(kind string, nagios ...string) []byte {
	for i, l := range nagios {
		nagios[i] = "    " + l
	}
	s := strings.Replace(issue14Chart, "KIND", kind, 1)
	return []byte(strings.Replace(s, "NAGIOS", strings.Join(nagios, "\n"), 1))
}

// TestIssue14NagiosMapping: result.nagios is written state → words (a
// list or one word) and read as word → state.
func TestIssue14NagiosMapping(t *testing.T) {
	t.Parallel()
	spec, err := Parse("chart.yaml", issue14Source("verdict/state", "critical: [at-risk, full]", "warning: filling", "ok: [fine]", "unknown: []"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"at-risk": "critical", "full": "critical", "filling": "warning", "fine": "ok"}
	got := spec.Result.Nagios
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("nagios = %v, want %v", got, want)
	}
	spec, err = Parse("chart.yaml", []byte(strings.Replace(strings.Replace(issue14Chart, "  nagios:\nNAGIOS\n", "", 1), "KIND", "verdict/state", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if spec.Result.Nagios != nil {
		t.Errorf("nagios not written, read as %v; want nil", spec.Result.Nagios)
	}
}

// TestIssue14NagiosLoadErrors: every way result.nagios can be wrong is a
// load error at its line and column saying what would be right; the
// messages are in testdata/issue14/nagios-errors.golden.
func TestIssue14NagiosLoadErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		kind   string
		nagios []string
	}{
		{"state-typo", "verdict/state", []string{"critcal: [at-risk]"}},
		{"state-unknown", "verdict/state", []string{"fatal: [at-risk]"}},
		{"known-is-no-state", "verdict/state", []string{"known: [at-risk]"}},
		{"written-backwards", "verdict/state", []string{"at-risk: critical"}},
		{"word-under-two-states", "verdict/state", []string{"critical: [at-risk]", "warning: [filling, at-risk]"}},
		{"word-twice", "verdict/state", []string{"critical: [at-risk, at-risk]"}},
		{"word-empty", "verdict/state", []string{`critical: [""]`}},
		{"word-not-text", "verdict/state", []string{"critical: [{a: b}]"}},
		{"kind-not-verdict", "report", []string{"critical: [at-risk]"}},
	}
	var out bytes.Buffer
	for _, tc := range cases {
		_, err := Parse("chart.yaml", issue14Source(tc.kind, tc.nagios...))
		if err == nil {
			t.Errorf("%s: loads; want a load error", tc.name)
			continue
		}
		for _, e := range err.(LoadErrors) {
			if e.Pos.Line < 5 || e.Pos.Line > 7 || e.Pos.Col < 1 {
				t.Errorf("%s: error at %d:%d, outside result.nagios: %v", tc.name, e.Pos.Line, e.Pos.Col, e)
			}
		}
		fmt.Fprintf(&out, "# %s\n%v\n", tc.name, err)
	}
	golden.Check(t, filepath.Join("..", "testdata", "issue14", "nagios-errors.golden"), out.Bytes())
	// The nearest state is offered for a typo.
	if !strings.Contains(out.String(), `did you mean "critical"?`) {
		t.Errorf("no did-you-mean for critcal:\n%s", out.String())
	}
}

// TestIssue14SchemaDescribesNagios: the schema (what editors complete)
// accepts result.nagios as the loader does and refuses a state that is
// not one of the four.
func TestIssue14SchemaDescribesNagios(t *testing.T) {
	t.Parallel()
	sch := compileChartSchema(t)
	validate := func(src []byte) error {
		js, err := yaml.YAMLToJSON(src)
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(inst)
	}
	if err := validate(issue14Source("verdict/state", "critical: [at-risk]", "warning: filling", "ok: [fine]", "unknown: [declined]")); err != nil {
		t.Errorf("a good result.nagios does not validate: %v", err)
	}
	for _, bad := range [][]string{{"critcal: [at-risk]"}, {"critical: 3"}, {"critical: [at-risk, at-risk]"}} {
		if err := validate(issue14Source("verdict/state", bad...)); err == nil {
			t.Errorf("result.nagios %v validates; want a refusal", bad)
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(ChartSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	props := doc["$defs"].(map[string]any)["result"].(map[string]any)["properties"].(map[string]any)
	nagios, ok := props["nagios"].(map[string]any)
	if !ok {
		t.Fatal("the schema's result has no nagios")
	}
	states := nagios["properties"].(map[string]any)
	if len(states) != len(NagiosStates) {
		t.Errorf("the schema's nagios states %v, the loader's %v", states, NagiosStates)
	}
	for _, s := range NagiosStates {
		if _, ok := states[s]; !ok {
			t.Errorf("the schema's nagios lacks state %q", s)
		}
	}
}

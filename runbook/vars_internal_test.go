package runbook

import (
	"reflect"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/chart"
)

// Vars are evaluated in order over the inputs and earlier vars; each
// carries the inputs it came from, so an assumed input read only through a
// var is still a used assumption; a var that fails refuses the run.
func TestEvalVars(t *testing.T) {
	t.Parallel()
	spec, err := chart.Parse("vars.yaml", []byte(`version: 1
runbook: v
inputs:
  threshold: {type: number, default: 90}
  window: {type: string, default: "2h"}
vars:
  margin: 5
  warnAt: threshold - margin
  label: 'window + " at " + string(warnAt)'
stages:
  - {id: s, set: {x: label}}
`))
	if err != nil {
		t.Fatal(err)
	}
	rb, err := Build(spec)
	if err != nil {
		t.Fatal(err)
	}
	in, err := rb.resolveInputs(map[string]any{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if in.values["label"] != "2h at 85" {
		t.Errorf("label = %v, want \"2h at 85\"", in.values["label"])
	}
	want := map[string][]string{"margin": nil, "warnAt": {"threshold"}, "label": {"threshold", "window"}}
	if !reflect.DeepEqual(in.varInputs, want) {
		t.Errorf("varInputs = %v, want %v", in.varInputs, want)
	}
	if len(in.given) != 0 || strings.Join(in.assumed, ",") != "threshold,window" {
		t.Errorf("given %v, assumed %v: a var is neither", in.given, in.assumed)
	}

	spec, err = chart.Parse("bad.yaml", []byte("version: 1\nrunbook: v\nvars:\n  z: 1 / 0\nstages:\n  - {id: s, set: {x: z}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	rb, _ = Build(spec)
	if _, err := rb.resolveInputs(nil, nil, nil); err == nil || !strings.Contains(err.Error(), `var "z": 1 / 0`) {
		t.Errorf("a var that fails: err = %v, want one naming it", err)
	}
}

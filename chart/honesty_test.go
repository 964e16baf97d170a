package chart

import "testing"

// A chart runs scripts when any stage anywhere in it — a branch, a
// foreach body, a subflow inline or mounted — is an exec or plugin stage.
func TestRunsScripts(t *testing.T) {
	exec := StageSpec{ID: "e", Exec: &ExecSpec{}}
	plugin := StageSpec{ID: "p", Plugin: &PluginStageSpec{Name: "x"}}
	set := StageSpec{ID: "s"}
	mounted := &Spec{Stages: []StageSpec{exec}}
	for _, tc := range []struct {
		name   string
		stages []StageSpec
		want   bool
	}{
		{"none", []StageSpec{set}, false},
		{"exec", []StageSpec{set, exec}, true},
		{"plugin in a branch", []StageSpec{{ID: "d", Branches: []BranchSpec{{Name: "a", Stages: []StageSpec{plugin}}}}}, true},
		{"exec in a foreach", []StageSpec{{ID: "f", ForEach: &ForEachSpec{Stages: []StageSpec{exec}}}}, true},
		{"exec in a mounted chart", []StageSpec{{ID: "m", Subflow: &SubflowSpec{Chart: "x.yaml", Spec: mounted}}}, true},
		{"an inline subflow of sets", []StageSpec{{ID: "m", Subflow: &SubflowSpec{Stages: []StageSpec{set}}}}, false},
	} {
		if got := (&Spec{Stages: tc.stages}).RunsScripts(); got != tc.want {
			t.Errorf("%s: RunsScripts = %v, want %v", tc.name, got, tc.want)
		}
	}
	on := &Spec{}
	off := &Spec{Honesty: []string{HonestyCoverage}}
	if !on.HonestyOn(HonestyLabel) || off.HonestyOn(HonestyLabel) || !off.HonestyOn(HonestyCoverage) {
		t.Error("HonestyOn: nil means every stage on; a list, those it names")
	}
}

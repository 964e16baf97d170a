package runbook

import (
	"testing"

	"github.com/openrunbook/runbook/record"
)

// TestAssumedArgsCrossTheRecord: what a run's plugins assumed goes into
// the record's plugin entries and comes back, as a resumed run reads it,
// with a sensitive argument's value left out both ways.
func TestAssumedArgsCrossTheRecord(t *testing.T) {
	as := []assumedArg{
		{path: "age", name: "maxAge", by: "file-age", value: "24h"},
		{path: "login", name: "password", by: "vault", value: "hunter22", secret: true},
	}
	ps := []record.PluginRun{{Name: "file-age"}, {Name: "vault"}}
	attachAssumed(ps, as)
	if v := ps[1].Assumed[0].Value; v != nil {
		t.Errorf("a sensitive argument's value %v is in the record", v)
	}
	back := assumedFrom(ps)
	want := []assumedArg{as[0], {path: "login", name: "password", by: "vault", secret: true}}
	if len(back) != len(want) {
		t.Fatalf("back %v, want %v", back, want)
	}
	for i := range want {
		if back[i] != want[i] {
			t.Errorf("back[%d] = %+v, want %+v", i, back[i], want[i])
		}
	}
}

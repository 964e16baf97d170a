package recorder

import (
	"encoding/json"
	"testing"
	"time"
)

func TestMetricsSnapshot(t *testing.T) {
	t.Parallel()
	m := NewMetrics()
	if s := m.Snapshot(); s.Status != "running" || len(s.Stages) != 0 {
		t.Fatalf("empty snapshot = %+v", s)
	}
	for _, e := range fixtureForEach() {
		m.Record(e)
	}
	s := m.Snapshot()
	if s.Status != "completed" || s.ElapsedMs != 42 {
		t.Errorf("status %q elapsed %v", s.Status, s.ElapsedMs)
	}
	wantStages := []struct {
		stage string
		count int
	}{{"seed", 1}, {"per-volume", 1}, {"per-volume~*/load", 3}, {"per-volume~*/posture", 3}}
	if len(s.Stages) != len(wantStages) {
		t.Fatalf("stages = %+v", s.Stages)
	}
	for i, w := range wantStages {
		got := s.Stages[i]
		if got.Stage != w.stage || got.Count != w.count || got.Ended != w.count {
			t.Errorf("stage %d = %+v, want %s ×%d", i, got, w.stage, w.count)
		}
		if got.Total != time.Duration(w.count)*1500*time.Microsecond || got.Max != 1500*time.Microsecond || got.MaxMs != 1.5 {
			t.Errorf("stage %s durations = %v total, %v max", got.Stage, got.Total, got.Max)
		}
	}
	wantDecisions := []DecisionMetrics{
		{Decider: "per-volume~*/posture", Name: "Protection posture", Branch: "protected", Count: 1},
		{Decider: "per-volume~*/posture", Name: "Protection posture", Branch: "declined", Count: 2, Fallbacks: 2},
	}
	if len(s.Decisions) != len(wantDecisions) {
		t.Fatalf("decisions = %+v", s.Decisions)
	}
	for i, w := range wantDecisions {
		if s.Decisions[i] != w {
			t.Errorf("decision %d = %+v, want %+v", i, s.Decisions[i], w)
		}
	}
	if s.Counts.Branches != 3 || s.Counts.Stages != 8 || s.Counts.Reads != 6 {
		t.Errorf("counts = %+v", s.Counts)
	}
	a, _ := json.Marshal(s)
	b, _ := json.Marshal(m.Snapshot())
	if string(a) != string(b) {
		t.Error("snapshot JSON not deterministic")
	}
}

func TestMetricsStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		events []Event
		want   string
	}{
		{"failed", fixtureError(), "failed"},
		{"paused", fixturePause(), "paused"},
		{"loop", fixtureLoop(10), "completed"},
	} {
		m := NewMetrics()
		for _, e := range tc.events {
			m.Record(e)
		}
		if got := m.Snapshot().Status; got != tc.want {
			t.Errorf("%s: status %q, want %q", tc.name, got, tc.want)
		}
	}
}

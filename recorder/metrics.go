package recorder

import (
	"sync"
	"time"
)

// Metrics counts a run as it goes: how often each stage ran and how long it
// took, how often each decider chose each branch, and the flow events worth
// a number (retries, errors, loop jumps, branches). Stages of generated
// foreach branches are counted together: `per-volume~3/load` and
// `per-volume~4/load` are both `per-volume~*/load`.
//
// Snapshot may be called while the run goes on (a progress line) and after.
// Cost per event: a mutex and, for stage and decision events, a map lookup.
type Metrics struct {
	mu        sync.Mutex
	stages    map[string]*StageMetrics
	order     []string
	decisions map[decisionKey]*DecisionMetrics
	dorder    []decisionKey
	counts    Counts
	elapsed   time.Duration
	status    string
}

type decisionKey struct{ decider, branch string }

// MetricsSnapshot is the metrics at one moment, as plain data: stages and
// decisions in the order they were first seen (the run's order, which is the
// same on every run of the same chart and inputs).
type MetricsSnapshot struct {
	// Status is "running", "completed", "failed" or "paused".
	Status string `json:"status"`
	// ElapsedMs is the run's duration, once it ended.
	ElapsedMs float64           `json:"elapsedMs,omitempty"`
	Counts    Counts            `json:"counts"`
	Stages    []StageMetrics    `json:"stages"`
	Decisions []DecisionMetrics `json:"decisions"`
}

// Counts are the run's flow events, counted.
type Counts struct {
	Events   int `json:"events"`
	Stages   int `json:"stages"`
	Reads    int `json:"reads"`
	Writes   int `json:"writes"`
	Branches int `json:"branches"`
	Loops    int `json:"loops"`
	Retries  int `json:"retries"`
	Errors   int `json:"errors"`
}

// StageMetrics is one stage: its executions and their durations.
type StageMetrics struct {
	// Stage is the stage path in ids, without the execution counter, foreach
	// item indexes replaced by `*`: `per-volume~*/load`.
	Stage string `json:"stage"`
	Name  string `json:"name,omitempty"`
	Count int    `json:"count"`
	// Ended counts the executions whose end was recorded (Total and Max are
	// over those).
	Ended   int           `json:"ended"`
	Total   time.Duration `json:"totalNs"`
	Max     time.Duration `json:"maxNs"`
	TotalMs float64       `json:"totalMs"`
	MaxMs   float64       `json:"maxMs"`
}

// DecisionMetrics is how often one decider or selector took one branch.
type DecisionMetrics struct {
	// Decider is the decider's path in ids, as StageMetrics.Stage.
	Decider string `json:"decider"`
	Name    string `json:"name,omitempty"`
	Branch  string `json:"branch"`
	Count   int    `json:"count"`
	// Fallbacks counts the times this branch was taken as the default, no
	// rule having matched.
	Fallbacks int `json:"fallbacks,omitempty"`
}

// NewMetrics returns empty metrics.
func NewMetrics() *Metrics {
	return &Metrics{
		stages:    make(map[string]*StageMetrics),
		decisions: make(map[decisionKey]*DecisionMetrics),
		status:    "running",
	}
}

// Record counts e.
func (m *Metrics) Record(e Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts.Events++
	switch e.Kind {
	case StageStart:
		m.counts.Stages++
		m.stage(e).Count++
	case StageEnd:
		s := m.stage(e)
		s.Ended++
		s.Total += e.Elapsed
		s.Max = max(s.Max, e.Elapsed)
	case Read:
		m.counts.Reads++
	case Write:
		m.counts.Writes++
	case BranchStart:
		m.counts.Branches++
	case Loop:
		m.counts.Loops++
	case Retry:
		m.counts.Retries++
	case Error:
		m.counts.Errors++
	case Decision, Select:
		m.decision(e)
	case RunEnd:
		m.status, m.elapsed = "completed", e.Elapsed
	case RunFailed:
		m.status, m.elapsed = "failed", e.Elapsed
	case Pause:
		m.status = "paused"
	}
}

// Snapshot copies the metrics as they are now.
func (m *Metrics) Snapshot() MetricsSnapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := MetricsSnapshot{
		Status:    m.status,
		ElapsedMs: ms(m.elapsed),
		Counts:    m.counts,
		Stages:    make([]StageMetrics, 0, len(m.order)),
		Decisions: make([]DecisionMetrics, 0, len(m.dorder)),
	}
	for _, k := range m.order {
		st := *m.stages[k]
		st.TotalMs, st.MaxMs = ms(st.Total), ms(st.Max)
		s.Stages = append(s.Stages, st)
	}
	for _, k := range m.dorder {
		s.Decisions = append(s.Decisions, *m.decisions[k])
	}
	return s
}

func (m *Metrics) stage(e Event) *StageMetrics {
	k := generalPath(e.Place, e.StageID)
	s := m.stages[k]
	if s == nil {
		s = &StageMetrics{Stage: k, Name: e.StageName}
		m.stages[k] = s
		m.order = append(m.order, k)
	}
	return s
}

func (m *Metrics) decision(e Event) {
	decider := generalPath(e.Place, e.StageID)
	branches := e.Branches
	if len(branches) == 0 && e.Decision != nil {
		branches = e.Decision.Chosen
	}
	fallback := e.Kind == Decision && e.Decision != nil && e.Decision.Default != nil && e.Decision.FellThrough()
	for _, b := range branches {
		k := decisionKey{decider, b}
		d := m.decisions[k]
		if d == nil {
			d = &DecisionMetrics{Decider: decider, Name: e.StageName, Branch: b}
			m.decisions[k] = d
			m.dorder = append(m.dorder, k)
		}
		d.Count++
		if fallback {
			d.Fallbacks++
		}
	}
}

// generalPath is the stage's place with its id (`per-volume~*/posture`),
// so the items of one foreach count as one stage.
func generalPath(place, id string) string {
	if place == "" {
		return id
	}
	return place + "/" + id
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

package charttest

import (
	"strings"

	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/record"
)

// The four words of a rule's coverage, best first: a rule takes the best
// any case gave it.
const (
	Matched      = "matched"       // some case's decision matched it (for a default: took it)
	Evaluated    = "evaluated"     // some case's decision evaluated it; none matched it
	Errored      = "errored"       // every decision that reached it could not evaluate it (a rule-error: counted as no match)
	NeverReached = "never reached" // no case's decision got to it
)

// rank orders the words: a rule's state is the best any decision gave it.
var rank = map[string]int{Matched: 3, Evaluated: 2, Errored: 1}

// Coverage is a chart's rule coverage over every case run against it
// (--coverage): per decider, each rule and the default, and the branches
// no case took. A rule no case matched is how a shadowed or dead rule is
// found.
type Coverage struct {
	Chart    string            `json:"chart"`
	Deciders []DeciderCoverage `json:"deciders"`
	// Matched of Total rules and defaults were matched by some case.
	Matched int `json:"matched"`
	Total   int `json:"total"`
}

// DeciderCoverage is one decide or select stage, by its path in ids with
// generated branches folded (`per-volume~*/headroom`, flow.GeneralScope).
type DeciderCoverage struct {
	Path  string         `json:"path"`
	Rules []RuleCoverage `json:"rules"`
	// NeverTaken are its branches no case's decision chose, in declared
	// order.
	NeverTaken []string `json:"neverTaken"`
}

// RuleCoverage is one rule (Number 1-based, as the loader counts them) or
// the default (Default true, Number 0).
type RuleCoverage struct {
	Number  int    `json:"number,omitempty"`
	Default bool   `json:"default,omitempty"`
	Label   string `json:"label,omitempty"`
	Then    string `json:"then"`
	State   string `json:"state"` // Matched, Evaluated, Errored or NeverReached
	// Err is, for an Errored rule, its predicate's error in the first
	// decision that reached it.
	Err string `json:"error,omitempty"`
}

// Percent is the share of rules and defaults matched (100 for a chart with
// none: nothing is left unmatched).
func (c *Coverage) Percent() float64 {
	if c.Total == 0 {
		return 100
	}
	return 100 * float64(c.Matched) / float64(c.Total)
}

// CoverageOf is the rule coverage of chart by the records of its cases.
// A Go decider (its rules unknown statically) shows only its branches.
func CoverageOf(chartPath string, s flow.Structure, recs []*record.Record) *Coverage {
	cov := &Coverage{Chart: chartPath}
	type seen struct {
		rules   map[int]string // rule index → best state
		errs    map[int]string // rule index → its first error
		dflt    bool
		branchs map[string]bool
	}
	by := map[string]*seen{}
	for _, rec := range recs {
		if rec == nil {
			continue
		}
		for _, d := range rec.Decisions {
			key := fold(d.Path)
			sn := by[key]
			if sn == nil {
				sn = &seen{rules: map[int]string{}, errs: map[int]string{}, branchs: map[string]bool{}}
				by[key] = sn
			}
			any := false
			for _, r := range d.Rules {
				st := Evaluated
				switch {
				case r.Matched:
					st, any = Matched, true
				case r.Errored():
					// An expression's error or a filter condition that
					// could not judge its value: a rule-error either way.
					st = Errored
					if _, ok := sn.errs[r.Index]; !ok {
						sn.errs[r.Index] = strings.Join(record.RuleEvidenceErrors(&r), "; ")
					}
				}
				if rank[st] > rank[sn.rules[r.Index]] {
					sn.rules[r.Index] = st
				}
			}
			for _, b := range d.Chosen {
				sn.branchs[b] = true
			}
			if !any && d.Default != nil && len(d.Chosen) == 1 && d.Chosen[0] == d.Default.Branch {
				sn.dflt = true
			}
		}
	}
	walkDeciders(s.Nodes, nil, func(path string, n flow.NodeInfo) {
		dc := DeciderCoverage{Path: path, Rules: []RuleCoverage{}, NeverTaken: []string{}}
		sn := by[path]
		if sn == nil {
			sn = &seen{}
		}
		if !n.GoDecider {
			for _, r := range n.Rules {
				st := sn.rules[r.Index]
				if st == "" {
					st = NeverReached
				}
				rc := RuleCoverage{Number: r.Index + 1, Label: r.Label, Then: r.Then, State: st}
				if st == Errored {
					rc.Err = sn.errs[r.Index]
				}
				dc.Rules = append(dc.Rules, rc)
			}
			if n.Default != nil {
				st := NeverReached
				if sn.dflt {
					st = Matched
				}
				dc.Rules = append(dc.Rules, RuleCoverage{Default: true, Label: n.Default.Label, Then: n.Default.Branch, State: st})
			}
		}
		for _, r := range dc.Rules {
			cov.Total++
			if r.State == Matched {
				cov.Matched++
			}
		}
		for _, b := range n.Branches {
			if !sn.branchs[b.Name] {
				dc.NeverTaken = append(dc.NeverTaken, b.Name)
			}
		}
		cov.Deciders = append(cov.Deciders, dc)
	})
	return cov
}

// fold is a decision's record path with every foreach item written `*`.
func fold(path string) string {
	p, err := flow.ParsePath(path)
	if err != nil {
		return path
	}
	return join(flow.GeneralScope(p.Scope), p.Node)
}

func join(scope, id string) string {
	if scope == "" {
		return id
	}
	return scope + "/" + id
}

// walkDeciders calls f for every decide and select node, with its folded
// path, in chart order (branches, foreach bodies and subflows nested).
func walkDeciders(nodes []flow.NodeInfo, scope []flow.ScopeStep, f func(string, flow.NodeInfo)) {
	item := 0
	for _, n := range nodes {
		if n.Kind == flow.KindDecide || n.Kind == flow.KindSelect {
			f(join(flow.GeneralScope(scope), n.ID), n)
		}
		for _, b := range n.Branches {
			inner := scope
			if n.Kind != flow.KindDecide {
				inner = append(append([]flow.ScopeStep(nil), scope...), flow.ScopeStep{Node: n.ID, Branch: b.Name})
			}
			walkDeciders(b.Nodes, inner, f)
		}
		if n.ForEach != nil {
			walkDeciders(n.ForEach.Body.Nodes, append(append([]flow.ScopeStep(nil), scope...), flow.ScopeStep{Node: n.ID, Item: &item}), f)
		}
		if n.Subflow != nil {
			walkDeciders(n.Subflow.Nodes, append(append([]flow.ScopeStep(nil), scope...), flow.ScopeStep{Node: n.ID}), f)
		}
	}
}

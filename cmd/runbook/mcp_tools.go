package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openrunbook/runbook/chart"
	"github.com/openrunbook/runbook/record"
)

// A chart as an MCP tool (mcp.md "Tools"): its name, the description a
// model reads before calling it (generated from the chart's structure, so
// it cannot describe stages that do not exist), the input schema from the
// chart's inputs and the output schema of the result record. Nothing here
// runs a chart.

// toolName is the chart's `runbook:` name as a tool name: characters
// outside [A-Za-z0-9_-] become '_'.
func toolName(name string) string {
	s := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			return r
		}
		return '_'
	}, name)
	if s == "" {
		return "_"
	}
	return s
}

// toolDescription is the chart's description, then its steps (stage names
// in order, each decider with its branches and what they mean), then what
// a call returns.
func toolDescription(spec *chart.Spec) string {
	var b strings.Builder
	if d := strings.TrimSpace(spec.Description); d != "" {
		b.WriteString(oneLine(d))
		if !strings.HasSuffix(d, ".") {
			b.WriteString(".")
		}
		b.WriteString("\n\n")
	}
	b.WriteString("Steps:\n")
	asks := describeStages(&b, spec.Stages, "", 0)
	b.WriteString("\nReturns: ")
	b.WriteString(returnsText(spec, asks))
	return b.String()
}

// describeStages writes one line per stage, nested stages indented under
// the stage that holds them, numbered like 2.1. It reports whether any
// stage asks a question.
func describeStages(b *strings.Builder, stages []chart.StageSpec, prefix string, depth int) (asks bool) {
	indent := strings.Repeat("   ", depth)
	for i := range stages {
		st := &stages[i]
		num := fmt.Sprintf("%s%d", prefix, i+1)
		name := st.Name
		if name == "" {
			name = st.ID
		}
		fmt.Fprintf(b, "%s%s. %s (%s)", indent, num, oneLine(name), stageKindWords(st))
		if d := strings.TrimSpace(st.Description); d != "" {
			b.WriteString(": " + oneLine(d))
		}
		b.WriteString("\n")
		sub := indent + "   "
		switch st.Kind {
		case "ask":
			asks = true
		case "decide", "select":
			for _, br := range st.Branches {
				fmt.Fprintf(b, "%s- %s: %s\n", sub, br.Name, branchMeaning(st, br))
				if describeStages(b, br.Stages, num+".", depth+2) {
					asks = true
				}
			}
		case "parallel":
			for _, br := range st.Parallel {
				fmt.Fprintf(b, "%s- %s:\n", sub, br.Name)
				if describeStages(b, br.Stages, num+".", depth+2) {
					asks = true
				}
			}
		case "foreach":
			if st.ForEach != nil && describeStages(b, st.ForEach.Stages, num+".", depth+1) {
				asks = true
			}
		case "subflow":
			if sf := st.Subflow; sf != nil {
				inner := sf.Stages
				if sf.Spec != nil {
					inner = sf.Spec.Stages
				}
				if describeStages(b, inner, num+".", depth+1) {
					asks = true
				}
			}
		}
	}
	return asks
}

// stageKindWords says what kind of stage it is, with the part a reader
// needs to follow the steps (what a foreach goes over, what an ask asks).
func stageKindWords(st *chart.StageSpec) string {
	switch st.Kind {
	case "exec":
		return "runs a command"
	case "read":
		return "reads a file"
	case "set":
		return "computes values"
	case "decide":
		return "decides one branch"
	case "select":
		return "selects branches"
	case "parallel":
		return "runs branches in parallel"
	case "foreach":
		if fe := st.ForEach; fe != nil && fe.Items != nil {
			return fmt.Sprintf("for each %s in %s", fe.As, oneLine(fe.Items.String()))
		}
		return "for each item"
	case "subflow":
		return "runs a subflow"
	case "plugin":
		if st.Plugin != nil {
			return "calls the plugin " + st.Plugin.Name
		}
		return "calls a plugin"
	case "verdict":
		return "writes a verdict row"
	case "loop":
		if st.Loop != nil {
			return "loops back to " + st.Loop.To
		}
		return "loops"
	case "fail":
		return "fails the run"
	case "ask":
		if a := st.Ask; a != nil {
			names := make([]string, len(a.Expects))
			for i, e := range a.Expects {
				names[i] = e.Name + " (" + e.Type + ")"
			}
			return "asks a person for " + strings.Join(names, ", ")
		}
		return "asks a person"
	}
	return st.Kind
}

// branchMeaning is what a decider's branch means as the chart declares
// it: the branch's description, else the labels of the rules that lead to
// it, else the default's label, else nothing said.
func branchMeaning(st *chart.StageSpec, br chart.BranchSpec) string {
	var parts []string
	if d := strings.TrimSpace(br.Description); d != "" {
		parts = append(parts, oneLine(d))
	}
	var labels []string
	if d := st.Decide; d != nil {
		for i, r := range d.Rules {
			if r.Then != br.Name {
				continue
			}
			l := r.Label
			if l == "" {
				l = fmt.Sprintf("rule %d", i+1)
			}
			labels = append(labels, strconvQuote(oneLine(l)))
		}
		if st.Kind == "decide" && d.Default.Branch == br.Name {
			def := "no rule matched (the default)"
			if d.Default.Label != "" {
				def = "no rule matched: " + strconvQuote(oneLine(d.Default.Label))
			}
			labels = append(labels, def)
		}
	}
	if len(labels) > 0 {
		parts = append(parts, "when "+strings.Join(labels, " or "))
	}
	if len(parts) == 0 {
		return "(no description)"
	}
	return strings.Join(parts, "; ")
}

// strconvQuote quotes a label the way a person reads it in prose.
func strconvQuote(s string) string { return "\u201c" + s + "\u201d" }

// returnsText says what a call of the chart's tool returns, by the
// chart's result presentation (honesty.md §3: the two render laws).
func returnsText(spec *chart.Spec, asks bool) string {
	var b strings.Builder
	r := spec.Result
	if r != nil && strings.HasPrefix(r.Kind, "verdict/") {
		fmt.Fprintf(&b, "verdict rows (%s), one per subject", r.Kind)
		if r.Decider != "" {
			fmt.Fprintf(&b, ", their words meaning what the %s decider's branches mean", r.Decider)
		}
		if r.Presentation == "panel" {
			b.WriteString(". Presentation panel: the host already shows the rows, so the text holds no table; do not reproduce the rows, and quote a row's values byte for byte when a finding is about it")
		} else {
			b.WriteString(". Presentation prose: the text holds the table pre-rendered over exactly these rows; output it verbatim, never retyped")
		}
		b.WriteString(". Then the meanings, the coverage (what was and was not checked) and the standing line (how far the answer stands).")
	} else {
		b.WriteString("the run's final state, the coverage (what was and was not checked) and the standing line (how far the answer stands).")
	}
	if asks {
		b.WriteString(" The run may ask a question: answered through the client when it can, else the result says it paused, and the resume tool continues it.")
	}
	b.WriteString(" structuredContent is the result record with its runId, for the explain tool and the runbook://runs/{runId} resource.")
	return b.String()
}

// inputSchema is the chart's inputs as a JSON Schema object: type,
// description, default and required; a secret input is writeOnly (a
// client must not show it back).
func inputSchema(ins []chart.InputSpec) map[string]any {
	props := map[string]any{}
	required := []string{}
	for _, in := range ins {
		p := inputTypeSchema(in.Type)
		if in.Description != "" {
			p["description"] = in.Description
		}
		if in.HasDefault && !in.Secret {
			p["default"] = in.Default
		}
		if in.Secret {
			p["writeOnly"] = true
		}
		props[in.Name] = p
		if in.Required && !in.HasDefault {
			required = append(required, in.Name)
		}
	}
	s := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		sort.Strings(required)
		s["required"] = required
	}
	return s
}

// inputTypeSchema is one declared input type as JSON Schema. A duration
// is text (90s, 2h, 1h30m), as --input gives it.
func inputTypeSchema(typ string) map[string]any {
	switch typ {
	case "number":
		return map[string]any{"type": "number"}
	case "bool":
		return map[string]any{"type": "boolean"}
	case "list":
		return map[string]any{"type": "array"}
	case "object":
		return map[string]any{"type": "object"}
	case "duration":
		return map[string]any{"type": "string", "pattern": `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`}
	}
	return map[string]any{"type": "string"}
}

// outputSchema is the result record's schema (the published record
// schema's result definition) with the runId a call adds.
func outputSchema() (map[string]any, error) {
	var whole struct {
		Defs map[string]any `json:"$defs"`
	}
	if err := json.Unmarshal(record.RecordSchema(), &whole); err != nil {
		return nil, fmt.Errorf("the record schema does not read: %v", err)
	}
	if _, ok := whole.Defs["result"]; !ok {
		return nil, fmt.Errorf("the record schema has no result definition")
	}
	return map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"type":        "object",
		"description": "The result record (runbook exec --format json) and the runId naming this run for the explain and resume tools and the runbook://runs/{runId} resource.",
		"allOf":       []any{map[string]any{"$ref": "#/$defs/result"}},
		"properties":  map[string]any{"runId": map[string]any{"type": "string"}},
		"required":    []any{"runId"},
		"$defs":       whole.Defs,
	}, nil
}

// expectsSchema is an ask's expects as an elicitation's requested schema,
// or false when one of its types is not a flat value an elicitation form
// can hold (a list or an object).
func expectsSchema(expects map[string]string) (map[string]any, bool) {
	props := map[string]any{}
	names := make([]string, 0, len(expects))
	for name, typ := range expects {
		switch typ {
		case "list", "object":
			return nil, false
		}
		props[name] = inputTypeSchema(typ)
		names = append(names, name)
	}
	sort.Strings(names)
	return map[string]any{"type": "object", "properties": props, "required": names}, true
}

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// A refused call's text keeps its line breaks: each refused input on a
// line of its own, as inputErrorText lays them out, never one line with
// `\n` spelt in it for the model to unpick.
func TestMCPToolErrorKeepsItsLines(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"))
	res := m.call(t, "volumes-prose", map[string]any{"threshold": "lots", "thresold": 1})
	text := textOf(t, res)
	lines := strings.Split(text, "\n")
	if !res.IsError || len(lines) != 3 || !strings.HasSuffix(lines[0], "nothing ran:") ||
		!strings.HasPrefix(lines[1], "- input ") || !strings.HasPrefix(lines[2], "- input ") {
		t.Errorf("isError %v, text %q: want the refusal, then one line per refused input", res.IsError, text)
	}
	if strings.Contains(text, `\n`) {
		t.Errorf("text %q spells a line break as \\n", text)
	}
}

// explain's refusals say "explain:" once: the CLI's explain already words
// its errors so, and the tool added its own in front.
func TestMCPExplainErrorSaysExplainOnce(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"))
	id := structured(t, m.call(t, "volumes-prose", map[string]any{"threshold": 90}))["runId"].(string)
	for _, args := range []map[string]any{{"runId": id, "whyNot": "zzz"}, {"runId": id, "key": "nosuch"}} {
		res := m.call(t, toolExplain, args)
		text := textOf(t, res)
		if !res.IsError || !strings.HasPrefix(text, "explain: ") || strings.Count(text, "explain: ") != 1 {
			t.Errorf("explain %v: isError %v, text %q: want one \"explain: \", in front", args, res.IsError, text)
		}
	}
}

// An explain call's at past the record's commits is refused under the
// tool's own argument name, at; it said --at, a flag the agent never saw.
func TestMCPExplainAtSaysAt(t *testing.T) {
	m := newMCPTest(t, "", nil, filepath.Join(mcpData, "prose.yaml"))
	id := structured(t, m.call(t, "volumes-prose", map[string]any{"threshold": 90}))["runId"].(string)
	res := m.call(t, toolExplain, map[string]any{"runId": id, "at": 9999})
	text := textOf(t, res)
	if !res.IsError || !strings.Contains(text, "at 9999: the record has commits 0 to") || strings.Contains(text, "--at") {
		t.Errorf("isError %v, text %q: want the refusal to name at, not --at", res.IsError, text)
	}
}

package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestPluginOutputIsCappedOnStderr: a stage plugin that logs without end
// made runbook's own stderr its size (a million lines were 170 MB under
// --format nagios, which a monitoring core reads whole). Each plugin's
// first pluginLines lines are passed on, then one saying the rest are not
// shown; another plugin's lines and runbook's own are not counted.
func TestPluginOutputIsCappedOnStderr(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	log := newLogger(&b)
	for i := range pluginLines + 500 {
		log.Info(fmt.Sprintf("noise %d", i), "plugin", "spammy")
	}
	for i := range 3 {
		log.Info(fmt.Sprintf("quiet %d", i), "plugin", "calm", "stream", "stderr")
	}
	log.With("x", 1).Warn("runbook's own word")
	out := b.String()
	if n := strings.Count(out, "plugin=spammy"); n != pluginLines+1 {
		t.Errorf("%d lines of plugin spammy shown, want %d and the cut", n, pluginLines)
	}
	if !strings.Contains(out, fmt.Sprintf("noise %d", pluginLines-1)) || strings.Contains(out, fmt.Sprintf("noise %d", pluginLines)) {
		t.Errorf("the cut is not after line %d", pluginLines)
	}
	if !strings.Contains(out, "plugin spammy wrote more than 200 lines: the rest of its output this run is not shown") {
		t.Errorf("no line says the rest are not shown:\n%s", out[len(out)-600:])
	}
	if strings.Count(out, "plugin=calm") != 3 || !strings.Contains(out, "runbook's own word") {
		t.Errorf("another plugin's lines or runbook's own were cut")
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMQTTHeardNothingIsNoAnswer: `mosquitto_sub -t '$SYS/broker/#' -v
// -W 4` exits 27 when its time runs out, on every run, so a chart
// declares 27 an answer; over a user whose ACL hid every $SYS topic
// (Mosquitto 2.0 drops such a subscription in silence) it printed
// nothing, said `Timed out`, and the chart's `?? 0` read the counts that
// never came as none: `OK - 1 ok`, Consistent. No message heard under
// 27 is no answer now, unless the chart keyed 27 with the stderr its
// answer goes with (the silence is then its answer); messages heard
// under 27 are read as before (testdata/wave-mq/mqtt-sys).
func TestMQTTHeardNothingIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout, codes, status string
		code                        int
	}{
		{"nothing heard", "", "{27: listened}", "mq UNKNOWN - 1 stage did not check everything (sys), 1 ok", 3},
		{"messages heard", "$SYS/broker/publish/messages/dropped 0\n", "{27: listened}", "mq OK - 1 ok", 0},
		{"silence is the answer", "", "{27: {word: listened, stderr: Timed out}}", "mq OK - 1 ok", 0},
	} {
		name := strings.ReplaceAll(tc.name, " ", "-")
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
		tool := filepath.Join(dir, name, "mosquitto_sub")
		script := "#!/bin/sh\nprintf '%s' '" + tc.stdout + "'\necho 'Timed out' >&2\nexit 27\n"
		if err := writeExec(tool, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, dir, name+".yaml", `version: 1
runbook: mq
result: {kind: verdict/broker, decider: Counters, nagios: {ok: ok, warning: dropping}}
stages:
  - id: sys
    exec: {command: [`+tool+`, -t, "$SYS/broker/#", -v, -W, "4"], exitCodes: `+tc.codes+`, parse: {as: kv, sep: " "}}
  - id: counters
    name: Counters
    decide:
      rules:
        - {when: 'int(sys.stdout["$SYS/broker/publish/messages/dropped"] ?? 0) > 0', then: dropping, label: dropping}
      default: {branch: ok, label: none dropped}
    branches:
      dropping: [{id: d, verdict: {subject: '"broker"', verdict: '"dropping"'}}]
      ok: [{id: o, verdict: {subject: '"broker"', verdict: '"ok"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.status) || r.code != tc.code {
			t.Errorf("%s: exit %d:\n%s\nwant exit %d, %q first", tc.name, r.code, r.stdout, tc.code, tc.status)
		}
		if tc.code == 3 && !strings.Contains(r.stdout, "27 is mosquitto_sub's code for -W's time running out") {
			t.Errorf("%s: does not say why:\n%s", tc.name, r.stdout)
		}
	}
}

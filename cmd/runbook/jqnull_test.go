package main

import (
	"strings"
	"testing"
)

// TestJQNullIsNoAnswer: jq prints null for a path that holds no value, a
// key the object lacks as much as one set to null. `ip -j addr | jq -r
// '.[] | "\(.ifname) \(.operState)"'` (ip writes operstate) printed `eth0
// null` for every link, exit 0, and a chart asking `i.state == "DOWN"`
// called a link that was down up: `OK - 2 ok`, Consistent. Under `jq -e`,
// the exit 1 a chart declared "down" was jq's answer over null, not over
// false. Both are a not-checked item now (kind jq-null): Not sure,
// UNKNOWN; so is a member jq wrote null in every object of a list it
// built (`{state: .operState}`), and a column @tsv left empty in every
// row. A null the tool gave inside a JSON list (lsblk's mountpoints
// [null], passed through jq pretty-printed) and the word null printed by
// no jq are not flagged (testdata/wave-jq/links).
func TestJQNullIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// jq is a shell function here, so the test needs no jq installed: the
	// run judges the script's words and its output.
	for _, tc := range []struct {
		name, script, parse, exitCodes, said string
	}{
		{"raw output of a misspelt key", `jq() { cat >/dev/null; printf 'lo null\neth0 null\n'; }; echo '[]' | jq -r '.[] | "\(.ifname) \(.operState)"'`, `{as: columns, header: false, names: [name, state]}`, ``,
			`stage "ip" did not check its output (jq printed null where its filter asked for a value though it exited 0: `},
		{"jq -e over null", `jq() { cat >/dev/null; echo null; return 1; }; echo '[]' | jq -e '.[0].operState'`, `{as: columns, header: false, names: [name, state]}`, `{1: down}`,
			`stage "ip" did not check its output (jq printed null where its filter asked for a value though it exited 1, which the chart declares the answer "down" (jq -e exits 1 over null as over false)`},
		{"an object built with a misspelt key", `jq() { cat >/dev/null; printf '[{"name": "lo", "state": null}, {"name": "eth0", "state": null}]\n'; }; echo '[]' | jq '[.[] | {name: .ifname, state: .operState}]'`, `json`, ``,
			`stage "ip" did not check its output (jq printed null where its filter asked for a value though it exited 0: a path that holds no value prints null, a key the object lacks (misspelt, or spelt in another case) as much as one set to null, so the word is no value the tool gave and a rule over it judges nothing; in its JSON, member "state" is null in each of the 2 objects of a list; `},
		{"@tsv of a misspelt key", `jq() { cat >/dev/null; printf 'lo\t\neth0\t\n'; }; echo '[]' | jq -r '.[] | [.ifname, .operState] | @tsv'`, `{as: tsv, header: false, names: [name, state]}`, ``,
			`in its rows, column "state" is empty in each of the 2 rows (@tsv and @csv write null as an empty field)`},
		{"raw output of the key", `jq() { cat >/dev/null; printf 'lo UNKNOWN\neth0 DOWN\n'; }; echo '[]' | jq -r '.[] | "\(.ifname) \(.operstate)"'`, `{as: columns, header: false, names: [name, state]}`, ``, ``},
		{"a null the tool gave in a list", `jq() { cat >/dev/null; printf '[\n  {\n    "name": "eth0",\n    "state": "DOWN",\n    "mounts": [\n      null\n    ]\n  }\n]\n'; }; echo '[]' | jq .`, `json`, ``, ``},
		{"the word null and no jq", `printf 'lo null\n'`, `{as: columns, header: false, names: [name, state]}`, ``, ``},
	} {
		codes := ""
		if tc.exitCodes != "" {
			codes = "\n      exitCodes: " + tc.exitCodes
		}
		items := "ip.stdout"
		if tc.parse == "" || tc.exitCodes != "" {
			items = `ip.status == "down" ? [{name: "eth0", state: "DOWN"}] : ip.stdout`
		}
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `version: 1
runbook: links
result: {kind: verdict/link, decider: Link, nagios: {critical: [down], ok: [up]}}
stages:
  - id: ip
    exec:
      parse: `+tc.parse+codes+`
      shell: |
        `+tc.script+`
  - id: per
    foreach:
      items: '`+strings.ReplaceAll(items, "'", "''")+`'
      as: i
      maxBranches: 64
      stages:
        - id: link
          name: Link
          decide:
            rules:
              - {when: 'i.state == "DOWN"', then: down, label: the link is down}
            default: {branch: up, label: the link is not down}
          branches:
            down: [{id: d, verdict: {subject: i.name, verdict: '"down"'}}]
            up: [{id: u, verdict: {subject: i.name, verdict: '"up"'}}]
`)
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.said == "" {
			if strings.Contains(r.stdout, "did not check") || strings.Contains(r.stdout, "UNKNOWN") {
				t.Errorf("%s: exit %d; want nothing flagged:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code == 0 || !strings.Contains(r.stdout, "links UNKNOWN") && !strings.Contains(r.stdout, "links CRITICAL") || !strings.Contains(r.stdout, tc.said) {
			t.Errorf("%s: exit %d; want no OK, saying %s:\n%s%s", tc.name, r.code, tc.said, r.stdout, r.stderr)
		}
		if tc.exitCodes == "" && (r.code != 3 || !strings.HasPrefix(r.stdout, "links UNKNOWN")) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

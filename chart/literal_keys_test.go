package chart

import (
	"strings"
	"testing"
)

// TestExecDirAndEnvAreNotTemplates: `dir: ${dir}` and `env: {URL:
// "${base}"}` loaded, and ran the command in a directory named "${dir}"
// (the run said only "could not be started: working directory not
// found") or with the text "${base}" in $URL: dir: and env: are literal,
// as the docs say, but nothing said so. Each is now a load error at the
// value, saying what would be right; a literal dir and env load as before.
func TestExecDirAndEnvAreNotTemplates(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: t
inputs:
  dir: {type: string, required: true}
stages:
  - id: sums
    exec:
      command: [sha256sum, -c, SHA256SUMS]
      %s
`
	for _, tc := range []struct{ key, err string }{
		{`dir: ${dir}`, `c.yaml:9:12: stage "sums": exec dir holds ${…}, but dir: is literal (templates are command items and timeout): the command would start in a directory named "${dir}"; write the path, or change to it in a shell: script`},
		{`env: {WHERE: "${dir}/x"}`, `c.yaml:9:20: stage "sums": exec env "WHERE" holds ${…}, but env: values are literal (templates are command items and timeout): the command would see the text "${dir}/x"; compute it with envFrom: {WHERE: EXPR}`},
		{`dir: /var/backups`, ""},
		{`env: {LC_ALL: C.UTF-8}`, ""},
	} {
		_, err := Parse("c.yaml", []byte(strings.Replace(chart, "%s", tc.key, 1)))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want it to load", tc.key, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v\nwant an error containing %s", tc.key, err, tc.err)
		}
	}
}

// TestKeyBesideItsKindBlockSaysIndent: exitCodes: written one indent too
// far left, beside exec: rather than in it, was `unknown key "exitCodes"
// in the stage (known keys: id, name, …)`: the list of stage keys, which
// does not hold it, and no word of exec:. The error now names the block
// and the indent; a key no block of the stage takes is said as before.
func TestKeyBesideItsKindBlockSaysIndent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, err string }{
		{"  - id: probe\n    exec:\n      command: [curl, -s, http://svc]\n    exitCodes: {0: up, 7: down}\n",
			`c.yaml:7:5: stage "probe": unknown key "exitCodes" in the stage: it is a key of exec:, so indent it under exec: (exec: {…, exitCodes: …})`},
		{"  - id: f\n    read: {path: '\"/etc/hostname\"'}\n    into: host\n",
			`c.yaml:6:5: stage "f": unknown key "into" in the stage: it is a key of read:, so indent it under read:`},
		{"  - id: probe\n    exec: {command: [true]}\n    colour: red\n",
			`c.yaml:6:5: stage "probe": unknown key "colour" in the stage (known keys: id,`},
	} {
		_, err := Parse("c.yaml", []byte("version: 1\nrunbook: t\nstages:\n"+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v\nwant an error containing %s", tc.src, err, tc.err)
		}
	}
}

// TestStageKeyInsideItsKindBlockSaysOutdent: onError: written one indent
// too far right, under exec: rather than beside it, was `unknown key
// "onError" in exec (known keys: command, shell, …)`: the block's keys,
// which do not hold it, and no word of the stage. The reverse of
// TestKeyBesideItsKindBlockSaysIndent: the error names the stage and the
// indent. exec:'s own timeout: stays exec's.
func TestStageKeyInsideItsKindBlockSaysOutdent(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, err string }{
		{"  - id: nft\n    exec:\n      command: [nft, -j, list, ruleset]\n      onError: continue\n",
			`c.yaml:7:7: stage "nft": unknown key "onError" in exec: it is a key of the stage, so write it level with exec:, not inside it (- id: …, exec: {…}, onError: …)`},
		{"  - id: nft\n    exec: {command: [nft], retry: {attempts: 2}}\n",
			`stage "nft": unknown key "retry" in exec: it is a key of the stage`},
		{"  - id: d\n    decide:\n      rules: [{when: 'true', then: a}]\n      branches: {a: [{id: x, set: {y: 1}}]}\n",
			`stage "d": unknown key "branches" in decide: it is a key of the stage`},
	} {
		_, err := Parse("c.yaml", []byte("version: 1\nrunbook: t\nstages:\n"+tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v\nwant an error containing %s", tc.src, err, tc.err)
		}
	}
	if _, err := Parse("c.yaml", []byte("version: 1\nrunbook: t\nstages:\n  - id: s\n    exec: {command: [sleep, \"1\"], timeout: 5s}\n")); err != nil {
		t.Errorf("exec's own timeout: %v", err)
	}
}

// TestKindKeyWithNoKindBlockSaysWhichKind: `shell:` and `parse:` written
// at the stage's level with no `exec:` above them, as a first chart
// writes a script, was `has no kind key` and `unknown key "shell" in the
// stage (known keys: id, name, …)`, naming no kind that takes it. The
// error says which kind's key it is and how the block is written.
func TestKindKeyWithNoKindBlockSaysWhichKind(t *testing.T) {
	t.Parallel()
	src := "version: 1\nrunbook: t\nstages:\n  - id: h\n    shell: curl -sI http://svc/\n    parse: kv\n"
	_, err := Parse("c.yaml", []byte(src))
	for _, want := range []string{
		`c.yaml:5:5: stage "h": unknown key "shell" in the stage: it is a key of exec:, and a stage holds its kind's keys in the kind's block: exec: {shell: …}`,
		`c.yaml:6:5: stage "h": unknown key "parse" in the stage: it is a key of exec: or read:, and a stage holds its kind's keys in the kind's block: exec: {parse: …}`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v\nwant it to hold %s", err, want)
		}
	}
}

// TestCommandLineWrittenAsOneItemIsRefused: `command: ["iostat -x 1 1"]`
// looked for a program named "iostat -x 1 1", which `runbook plan` called
// not found and told to install, and a run said only `could not be
// started: not found`. A first item holding spaces, with no slash (a path
// may hold them) and no template, is refused at load, saying how to write
// it.
func TestCommandLineWrittenAsOneItemIsRefused(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: t
stages:
  - id: io
    exec: {command: %s}
`
	for _, tc := range []struct{ cmd, err string }{
		{`["iostat -x 1 1"]`, `c.yaml:5:22: stage "io": exec command's program "iostat -x 1 1" holds spaces: each item of command: is one argument, run without a shell, so no program by that name is found; write each word as its own item, [iostat, -x, "1", "1"], or write the line as shell: (run by bash)`},
		{`["sar -n DEV", "1", "3"]`, `exec command's program "sar -n DEV" holds spaces`},
		{`[iostat, -x, "1", "1"]`, ""},
		{`["/opt/My Tools/bin/probe", -v]`, ""},
		{`[sh, -c, "iostat -x 1 1"]`, ""},
	} {
		_, err := Parse("c.yaml", []byte(strings.Replace(chart, "%s", tc.cmd, 1)))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want it to load", tc.cmd, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v\nwant an error containing %s", tc.cmd, err, tc.err)
		}
	}
}

// TestExecDirNamingAnInputSaysItIsLiteral: `dir: project` beside an input
// `project` loaded and ran the command in a folder named "project" under
// runbook's own, and the run said only "could not be started: working
// directory not found", naming neither the folder nor that dir: is
// literal (an npm audit in the project the input named never ran). A dir
// that is exactly an input's or a var's name is a load error at the value
// now, saying how to change to it; a folder of another name loads.
func TestExecDirNamingAnInputSaysItIsLiteral(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: t
inputs:
  project: {type: string, required: true}
vars:
  where: '"/srv/" + project'
stages:
  - id: audit
    exec:
      command: [npm, audit, --json]
      %s
`
	for _, tc := range []struct{ key, err string }{
		{`dir: project`, `c.yaml:11:12: stage "audit": exec dir "project" is the name of the chart's input project, but dir: is literal: the command would start in a folder named "project" in runbook's own; write the path, or change to it in a shell: script (shell: cd "$D" && …, envFrom: {D: project})`},
		{`dir: where`, `exec dir "where" is the name of the chart's var where, but dir: is literal`},
		{`dir: app`, ""},
		{`dir: /srv/project`, ""},
	} {
		_, err := Parse("c.yaml", []byte(strings.Replace(chart, "%s", tc.key, 1)))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want it to load", tc.key, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v\nwant an error containing %s", tc.key, err, tc.err)
		}
	}
}

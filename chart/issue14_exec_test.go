package chart

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestIssue14TemplateText: a template part's value as text — strings as
// they are, numbers in plain decimal (never 1.37e+10), bools as words;
// null, lists and objects refused with the fix.
func TestIssue14TemplateText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    any
		want string
		err  string
	}{
		{"string as it is", "a b  c", "a b  c", ""},
		{"empty string", "", "", ""},
		{"int", 80, "80", ""},
		{"int64", int64(-3), "-3", ""},
		{"big float plain", 1.37e10, "13700000000", ""},
		{"huge float plain", 1e21, "1000000000000000000000", ""},
		{"fraction", 0.5, "0.5", ""},
		{"small fraction plain", 0.000001, "0.000001", ""},
		{"json number", json.Number("1.37e10"), "13700000000", ""},
		{"bool", true, "true", ""},
		{"null refused", nil, "", "gave null"},
		{"list refused", []any{"a"}, "", "gave a list"},
		{"object refused", map[string]any{}, "", "gave an object"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := TemplateText(tc.v)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("TemplateText(%v) = %q, %v; want an error with %q", tc.v, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("TemplateText(%v) = %q, %v; want %q", tc.v, got, err, tc.want)
			}
		})
	}
}

type mapEnv map[string]any

func (m mapEnv) Get(k string) (any, bool) { v, ok := m[k]; return v, ok }

// issue14ExecChart is a chart with inputs and one exec stage with the given
// command items (and an optional extra stage line block).
func issue14ExecChart(command string, extra string) string {
	return `version: 1
runbook: tpl
inputs:
  warn: {type: number, default: 80}
  host: {type: string, default: db-1}
  token: {type: string, secret: true, required: true}
stages:
` + extra + `  - id: check
    exec:
      command: ` + command + "\n"
}

// TestIssue14TemplateLoad: command items with ${EXPR} parts load as
// templates and render against the scope; an item with no ${ is literal;
// $${ is a literal ${; every mistake is a load error at its line and
// column: an unclosed or empty part, a part that does not compile, a name
// nothing defines (with did you mean), and a secret input, named, with the
// fix — read directly, through a set key or a var, or through $env.
func TestIssue14TemplateLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command, extra string
		argv                 []string // rendered with warn 80, host db-1
		err                  string
	}{
		{"no template: literal, no Args", `[echo, -w, "80"]`, "", nil, ""},
		{"number and string parts", `[check, -w, "${warn}", "--host=${host}"]`, "", []string{"check", "-w", "80", "--host=db-1"}, ""},
		{"number plain decimal", `[echo, "${warn * 171250000}"]`, "", []string{"echo", "13700000000"}, ""},
		{"literal dollar brace", `[echo, "$${HOME}", "$${warn}=${warn}"]`, "", []string{"echo", "${HOME}", "${warn}=80"}, ""},
		{"braces and quotes inside a part", `[echo, '${ {"a": "}"}.a }']`, "", []string{"echo", "}"}, ""},
		{"several parts in one item", `[echo, "${host}:${warn}"]`, "", []string{"echo", "db-1:80"}, ""},
		{"unclosed part", `[echo, "x${warn"]`, "", nil, `c.yaml:10:25: stage "check": exec command argument 2: template "x${warn": a ${ part is not closed`},
		{"empty part", `[echo, "${ }"]`, "", nil, `c.yaml:10:26: stage "check": exec command argument 2: template part ${} is empty`},
		{"part does not compile", `[echo, "-w=${warn +}"]`, "", nil, `c.yaml:10:34: stage "check": exec command argument 2: template part ${warn +} does not compile`},
		{"undefined name at its column", `[echo, "-w", "${wran}"]`, "", nil, `c.yaml:10:32: stage "check": exec command argument 3: expression "wran" reads wran, which no input, var, stage key, foreach as or index defines; did you mean "warn"?`},
		{"secret input refused", `[curl, -H, "Authorization: ${token}"]`, "", nil, `c.yaml:10:45: stage "check": exec command argument 3: template part ${token} reads the secret input "token": a secret never goes into argv, where ps shows it; curl reads no secret from its environment: give it its options on standard input, -K - (--config -), one a line, the secret's among them: user = "NAME:PASSWORD" for -u, header = "Authorization: Bearer <TOKEN>" for -H (a " or \ in a value written \" and \\): [curl, …, -K, -, …] with stdin: 'user = "NAME:' + token + '"' (or 'header = "Authorization: Bearer ' + token + '"')`},
		{"secret through a set key", `[curl, "${hdr}"]`, "  - {id: mk, set: {hdr: '\"Bearer \" + token'}}\n", nil, `template part ${hdr} reads the secret input "token" (hdr is set by stage "mk", computed from it)`},
		{"secret through $env", `[curl, '${$env["tok" + "en"]}']`, "", nil, `template part ${$env["tok" + "en"]} reads $env as a whole, which holds the secret input "token"`},
		{"secret by $env key", `[curl, '${$env["token"]}']`, "", nil, `reads the secret input "token"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			spec, err := Parse("c.yaml", []byte(issue14ExecChart(tc.command, tc.extra)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Parse = %v\nwant an error containing %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			es := spec.Stages[len(spec.Stages)-1].Exec
			if tc.argv == nil {
				if es.Args != nil {
					t.Fatalf("Args = %+v for a command with no template", es.Args)
				}
				return
			}
			env := mapEnv{"warn": 80, "host": "db-1"}
			var got []string
			for _, a := range es.Args {
				s, err := a.Render(env)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, s)
			}
			if !reflect.DeepEqual(got, tc.argv) {
				t.Errorf("argv = %q, want %q", got, tc.argv)
			}
		})
	}
}

// TestIssue14TimeoutTemplateLoad: exec timeout may be a template (kept as
// TimeoutTemplate, Timeout 0), checked like any expression; a plain
// duration is still read as one; a secret in it is refused.
func TestIssue14TimeoutTemplateLoad(t *testing.T) {
	t.Parallel()
	chart := func(timeout string) string {
		return "version: 1\nrunbook: t\ninputs:\n  t: {type: duration, default: 2s}\n  pw: {type: string, secret: true, required: true}\nstages:\n  - id: s\n    exec:\n      command: [sleep, \"1\"]\n      timeout: " + timeout + "\n"
	}
	spec, err := Parse("c.yaml", []byte(chart("${t}")))
	if err != nil {
		t.Fatal(err)
	}
	es := spec.Stages[0].Exec
	if es.TimeoutTemplate == nil || es.Timeout != 0 {
		t.Fatalf("TimeoutTemplate %+v Timeout %v; want a template and no fixed timeout", es.TimeoutTemplate, es.Timeout)
	}
	if got, err := es.TimeoutTemplate.Render(mapEnv{"t": "2s"}); err != nil || got != "2s" {
		t.Errorf("Render = %q, %v", got, err)
	}
	if spec, err := Parse("c.yaml", []byte(chart("3s"))); err != nil || spec.Stages[0].Exec.Timeout.String() != "3s" {
		t.Errorf("a plain timeout: %v", err)
	}
	for _, tc := range []struct{ timeout, err string }{
		{"${tt}", `c.yaml:10:18: stage "s": exec timeout: expression "tt" reads tt, which no input, var, stage key, foreach as or index defines; did you mean "t"?`},
		{`"${pw}s"`, `c.yaml:10:19: stage "s": exec timeout: template part ${pw} reads the secret input "pw"`},
	} {
		if _, err := Parse("c.yaml", []byte(chart(tc.timeout))); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("timeout %s: Parse = %v\nwant %s", tc.timeout, err, tc.err)
		}
	}
}

// TestIssue14ReadOnErrorInheritEnvLoad: read:, onError: and inheritEnv:
// load, and their mistakes are refused where they were written.
func TestIssue14ReadOnErrorInheritEnvLoad(t *testing.T) {
	t.Parallel()
	good := `version: 1
runbook: r
stages:
  - id: mem
    onError: continue
    read: {path: '"/proc/meminfo"', parse: lines}
  - id: confs
    read: {glob: '"conf.d/*.conf"', into: files}
  - id: use
    exec: {command: [env], inheritEnv: [KUBECONFIG, SSH_AUTH_SOCK]}
  - {id: after, set: {n: 'len(files) + len(mem.content)'}}
`
	spec, err := Parse("c.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if st := spec.Stages[0]; st.OnError != OnErrorContinue || st.Read == nil || st.Read.Path == nil || st.Read.Parse.Mode != "lines" || st.Read.Into != "mem" {
		t.Errorf("mem: onError %q read %+v", st.OnError, st.Read)
	}
	if rd := spec.Stages[1].Read; rd.Glob == nil || rd.Into != "files" {
		t.Errorf("confs: %+v", rd)
	}
	if got := spec.Stages[2].Exec.InheritEnv; !reflect.DeepEqual(got, []string{"KUBECONFIG", "SSH_AUTH_SOCK"}) {
		t.Errorf("inheritEnv = %v", got)
	}
	tests := []struct{ name, stage, err string }{
		{"onError misspelt", `{id: a, onError: continu, set: {x: 1}}`, `c.yaml:4:22: stage "a": onError "continu" is not one of fail, continue; did you mean "continue"?`},
		{"read both", `{id: a, read: {path: '"x"', glob: '"*"'}}`, `c.yaml:4:33: stage "a": read has both path and glob`},
		{"read neither", `{id: a, read: {into: x}}`, `c.yaml:4:13: stage "a": read has neither path nor glob`},
		{"bare path", `{id: a, read: {path: /proc/meminfo}}`, `c.yaml:4:26: stage "a": read path /proc/meminfo is an expression: a literal path is quoted inside it, '"/proc/meminfo"'`},
		{"read parse unknown", `{id: a, read: {path: '"x"', parse: jsn}}`, `c.yaml:4:40: stage "a": read parse: parse mode "jsn" is not one of columns, csv, json, jsonl, kv, ldif, lines, nagios, regex, text, tsv (did you mean "json"?)`},
		{"read key misspelt", `{id: a, read: {pth: '"x"'}}`, `unknown key "pth" in read; did you mean "path"?`},
		{"inheritEnv not a list", `{id: a, exec: {command: [env], inheritEnv: HOME}}`, `stage "a": exec inheritEnv must be a list`},
		{"inheritEnv bad name", `{id: a, exec: {command: [env], inheritEnv: ["A=B"]}}`, `stage "a": exec inheritEnv name "A=B" is not a variable name`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("c.yaml", []byte("version: 1\nrunbook: r\nstages:\n  - "+tc.stage+"\n"))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Parse = %v\nwant an error containing %s", err, tc.err)
			}
		})
	}
}

// TestIssue14SchemaDescribesNewKeys: `runbook schema` knows onError, read
// (path or glob, not both), inheritEnv and a templated exec timeout, so an
// editor completes them and flags their misspellings.
func TestIssue14SchemaDescribesNewKeys(t *testing.T) {
	t.Parallel()
	sch := compileChartSchema(t)
	if err := sch.Validate(chartAsJSON(t, "testdata/load/good/issue14-keys.yaml")); err != nil {
		t.Fatalf("the issue 14 chart does not validate: %v", err)
	}
	for _, bad := range []string{
		`{id: a, onError: maybe, set: {x: 1}}`,
		`{id: a, read: {path: '"x"', glob: '"*"'}}`,
		`{id: a, read: {pth: '"x"'}}`,
		`{id: a, read: {path: '"x"'}, set: {x: 1}}`,
		`{id: a, exec: {command: [env], inheritEnv: "HOME"}}`,
		`{id: a, exec: {command: [env], timeout: soon}}`,
	} {
		js, err := yaml.YAMLToJSON([]byte("version: 1\nrunbook: r\nstages:\n  - " + bad + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		if sch.Validate(inst) == nil {
			t.Errorf("the schema accepts %s", bad)
		}
	}
}

// TestTimeoutOfANumberInputIsRefusedAtLoad: exec timeout '${t}' over an
// input of type number renders "5", no duration; the chart loaded and
// every run failed at the stage. It is refused where it is written, saying
// to write ${t}s or declare a duration; a name a stage writes too (a set:
// key, a foreach as) is not judged, and ${t}s loads.
func TestTimeoutOfANumberInputIsRefusedAtLoad(t *testing.T) {
	t.Parallel()
	const head = "version: 1\nrunbook: t\ninputs:\n  t: {type: number, default: 5}\nstages:\n"
	_, err := Parse("c.yaml", []byte(head+"  - id: s\n    exec: {command: [sleep, \"0\"], timeout: '${t}'}\n"))
	if err == nil || !strings.Contains(err.Error(), `c.yaml:7:44: stage "s": exec timeout "${t}": input "t" is a number, which renders as a bare number ("5"), not a duration; write "${t}s" for seconds, or declare t as type: duration`) {
		t.Fatalf("Parse = %v; want the timeout refused at its place", err)
	}
	for name, stages := range map[string]string{
		"seconds written":  "  - id: s\n    exec: {command: [sleep, \"0\"], timeout: '${t}s'}\n",
		"a set key":        "  - id: given\n    set: {given: t}\n  - id: mk\n    set: {t: '\"2s\"'}\n  - id: s\n    exec: {command: [sleep, \"0\"], timeout: '${t}'}\n",
		"a foreach as":     "  - id: each\n    foreach:\n      items: '[\"1s\"]'\n      as: t\n      maxBranches: 2\n      stages:\n        - id: s\n          exec: {command: [sleep, \"0\"], timeout: '${t}'}\n",
		"a duration input": "  - id: s\n    exec: {command: [sleep, \"0\"], timeout: '${d}'}\n",
	} {
		src := strings.Replace(head, "inputs:\n", "inputs:\n  d: {type: duration, default: 2s}\n", 1) + stages
		if _, err := Parse("c.yaml", []byte(src)); err != nil {
			t.Errorf("%s: Parse = %v; want it loaded", name, err)
		}
	}
}

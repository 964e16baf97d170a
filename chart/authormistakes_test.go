package chart

import (
	"strings"
	"testing"
)

// loadErr parses src as c.yaml and checks its error holds want ("" for
// none).
func loadErr(t *testing.T, name, src, want string) {
	t.Helper()
	_, err := Parse("c.yaml", []byte(src))
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v", name, err)
	case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
		t.Errorf("%s: %v\nwant an error containing %s", name, err, want)
	}
}

// TestTemplateInsideExpressionTextIsRefused: `# contains "${app}"` in a
// set: counted the lines holding the text ${app}, none, and a log full of
// the app's lines stood Consistent under its "few" row. A ${NAME} inside
// an expression's quoted text, NAME a name the chart defines, is a load
// error at the $ saying to write the name bare; one nothing defines (a
// tool's own ${HOME}) and a template part of a command item load.
func TestTemplateInsideExpressionTextIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, set, err string
	}{
		{"contains", `'len(filter(split(log.stdout, "\n"), # contains "${app}"))'`, `c.yaml:9:66: stage "n": set "errs": expression "len(filter(split(log.stdout, \"\\n\"), # contains \"${app}\"))" holds ${app} inside a quoted text: ${…} is a template only in an exec command item or a timeout, so here it is those characters, never the value of app; write the name bare`},
		{"path", `'"/var/log/${ app }.log"'`, `holds ${ app } inside a quoted text`},
		{"a stage key", `'"${log.stdout}"'`, `never the value of log`},
		{"bare", `'len(filter(split(log.stdout, "\n"), # contains app))'`, ""},
		{"a word nothing defines", `'"${HOME}/x"'`, ""},
	} {
		src := `version: 1
runbook: t
inputs:
  app: {type: string, default: dpkg}
stages:
  - id: log
    exec: {command: [cat, "/var/log/${app}.log"], parse: text, into: log}
  - id: n
    set: {errs: ` + tc.set + `}
`
		loadErr(t, tc.name, src, tc.err)
	}
}

// TestConstantSubjectInAForeachIsRefused: `subject: '"v.mount"'` (a name
// quoted as text) in a foreach over df's filesystems wrote five rows
// `v.mount | ok`, Consistent: the table could not tell the items apart.
// A verdict stage in a foreach's body whose columns but verdict read
// nothing that differs between the items is a load error at its subject;
// a subject from the item, its index, a key the body writes, or another
// column from the item loads. A foreach inside another is asked of its
// own items: the outer item alone names every inner item the same.
func TestConstantSubjectInAForeachIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, cols, err string
	}{
		{"quoted name", `subject: '"v.mount"', verdict: '"ok"'`, `c.yaml:12:71: stage "o": verdict writes one row per item of the foreach "per" and subject: "v.mount" reads nothing that differs between them (v, index or a key the foreach's stages write), so every row names the same subject`},
		{"an input", `subject: host, verdict: '"ok"'`, `every row names the same subject`},
		{"no subject", `verdict: '"ok"'`, `and it has no column but verdict, so every row names the same subject`},
		{"the item", `subject: v.mount, verdict: '"ok"'`, ""},
		{"the index", `subject: string(index), verdict: '"ok"'`, ""},
		{"a key the body writes", `subject: m, verdict: '"ok"'`, ""},
		{"another column", `subject: host, mount: v.mount, verdict: '"ok"'`, ""},
	} {
		src := `version: 1
runbook: t
inputs:
  host: {type: string, default: db1}
result: {kind: verdict/disk}
stages:
  - id: per
    foreach:
      items: '[{mount: "/"}, {mount: "/var"}]'
      as: v
      maxBranches: 10
      stages: [{id: m, set: {m: v.mount}}, {id: o, verdict: {` + tc.cols + `}}]
`
		loadErr(t, tc.name, src, tc.err)
	}
	nested := `version: 1
runbook: t
inputs:
  hosts: {type: list, default: [a, b]}
result: {kind: verdict/disk}
stages:
  - id: hosts-each
    foreach:
      items: hosts
      as: host
      maxBranches: 10
      stages:
        - id: disks
          foreach:
            items: '["/", "/var"]'
            as: disk
            maxBranches: 10
            stages: [{id: o, verdict: {subject: SUBJECT, verdict: '"ok"'}}]
`
	loadErr(t, "nested, the outer item", strings.Replace(nested, "SUBJECT", "host", 1), `the foreach "disks" and subject: host reads nothing that differs between them (disk, index`)
	loadErr(t, "nested, both items", strings.Replace(nested, "SUBJECT", `host + ":" + disk`, 1), "")
}

// TestIntoReusedBeforeItIsReadIsRefused: `into: state` given to two exec
// stages loaded; the second's output replaced the first's before anything
// read it, and a service check stood Consistent, "up", over a unit that
// systemctl called inactive. A key a later stage of the same list writes
// again, no stage between reading it, is a load error at the second
// stage naming the first; a read between them (or by the second itself),
// a write in another branch, the verdict rows and a chart with a loop
// load.
func TestIntoReusedBeforeItIsReadIsRefused(t *testing.T) {
	t.Parallel()
	head := "version: 1\nrunbook: t\nstages:\n"
	for _, tc := range []struct {
		name, stages, err string
	}{
		{"two intos", `  - {id: st, exec: {command: [systemctl, is-active, cron], parse: text, into: state}}
  - {id: up, exec: {command: [echo, active], parse: text, into: state}}
  - {id: v, set: {s: state.stdout}}
`, `c.yaml:5:6: stage "up": writes the key state, which stage "st" (at 4:6) wrote and no stage between them read, so what "st" wrote is never read`},
		{"a set after an into", `  - {id: st, exec: {command: [echo, a], parse: text}}
  - {id: x, set: {st: '"b"'}}
`, `stage "x": writes the key st, which stage "st"`},
		{"in a branch", `  - {id: d, decide: {rules: [{when: 'now() > now()', then: a}], default: b}, branches: {a: [{id: p, set: {k: 1}}, {id: q, set: {k: 2}}], b: [{id: r, set: {k: 3}}]}}
`, `stage "q": writes the key k, which stage "p"`},
		{"read between", `  - {id: st, exec: {command: [echo, a], parse: text, into: state}}
  - {id: keep, set: {first: state.stdout}}
  - {id: up, exec: {command: [echo, b], parse: text, into: state}}
`, ""},
		{"read in a template between", `  - {id: st, exec: {command: [echo, a], parse: text, into: state}}
  - {id: use, exec: {command: [echo, "${state.stdout}"]}}
  - {id: up, exec: {command: [echo, b], parse: text, into: state}}
`, ""},
		{"read by the second", `  - {id: a, set: {n: 1}}
  - {id: b, set: {n: n + 1}}
`, ""},
		{"other branches", `  - {id: d, decide: {rules: [{when: 'now() > now()', then: a}], default: b}, branches: {a: [{id: p, set: {k: 1}}], b: [{id: r, set: {k: 3}}]}}
`, ""},
		{"a plugin between", `  - {id: st, exec: {command: [echo, a], parse: text, into: state}}
  - {id: judge, plugin: {name: analyzer}}
  - {id: up, exec: {command: [echo, b], parse: text, into: state}}
`, ""},
		{"a loop", `  - {id: a, set: {n: 1}}
  - {id: b, set: {n: 2}}
  - {id: again, loop: {to: a, while: 'n < 2', max: 2}}
`, ""},
	} {
		loadErr(t, tc.name, head+tc.stages, tc.err)
	}
}

// TestRuleAnEarlierRuleCoversIsRefused: rules `v.pct >= 80 → warn` then
// `v.pct >= 90 → critical` loaded, and a volume 95% full was warn, its
// critical rule never chosen. A decide rule that compares a key with a
// number, every value of which an earlier rule of the same form over the
// same key matches, is a load error at its place saying to put it first;
// the same rules in the right order, a select, and a filter beside an
// expression (which may err apart) load.
func TestRuleAnEarlierRuleCoversIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, kind, r1, r2, err string
	}{
		{"the wrong order", "decide", `v.pct >= 80`, `v.pct >= 90`, `c.yaml:9:12: stage "d": rule 2 ("second", v.pct >= 90) is never chosen: every value of v.pct it matches, rule 1 ("first", v.pct >= 80) matches first, and decide takes the first rule that matches; put rule 2 before rule 1`},
		{"flipped sides", "decide", `v.pct > 80`, `90 <= v.pct`, `rule 2 ("second", 90 <= v.pct) is never chosen`},
		{"below", "decide", `v.free < 10`, `v.free <= 5`, `rule 2 ("second", v.free <= 5) is never chosen`},
		{"equal", "decide", `v.n >= 3`, `v.n == 3`, `rule 2 ("second", v.n == 3) is never chosen`},
		{"filters", "decide", `{v.pct: {gte: 80}}`, `{v.pct: {gt: 90}}`, `is never chosen`},
		{"the right order", "decide", `v.pct >= 90`, `v.pct >= 80`, ""},
		{"an open bound", "decide", `v.pct > 80`, `v.pct >= 80`, ""},
		{"other keys", "decide", `v.pct >= 80`, `v.inodes >= 90`, ""},
		{"select", "select", `v.pct >= 80`, `v.pct >= 90`, ""},
		{"a filter, then an expression", "decide", `{v.pct: {gte: 80}}`, `v.pct >= 90`, ""},
	} {
		dflt := "\n      default: b"
		if tc.kind == "select" {
			dflt = ""
		}
		src := `version: 1
runbook: t
stages:
  - {id: v, set: {v: '{"pct": 95, "free": 1, "n": 3, "inodes": 1}'}}
  - id: d
    ` + tc.kind + `:
      rules:
        - {when: ` + tc.r1 + `, then: a, label: first}
        - {when: ` + tc.r2 + `, then: b, label: second}` + dflt + `
    branches: {a: [{id: x, set: {w: 1}}], b: [{id: y, set: {w: 2}}]}
`
		loadErr(t, tc.name, src, tc.err)
	}
}

// TestPartlyQuotedValueSaysQuoteItWhole: `when: 'v.pct' >= limit` was
// refused as `invalid header option: "= limit"`, and `subject: '"disk "'
// + v.mount` inside {…} as a { not closed by a }: words that say neither
// that the quote ended the value nor what to write. The error now gives
// the value whole, quoted once.
func TestPartlyQuotedValueSaysQuoteItWhole(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, line, err string
	}{
		{"a quoted name", `  - {id: d, set: {x: 'v.pct' >= limit}}`, `c.yaml:4:30: the file is not valid YAML: invalid header option: "= limit}}" (the quoted 'v.pct' ends the value at its closing quote, and YAML reads nothing after it as part of the value: quote the whole value, 'v.pct >= limit'; a text inside an expression takes the other kind of quote)`},
		{"a quoted text first, in a flow map", `  - {id: d, set: {x: '"disk " + v.mount', y: '"disk "' + v.mount}}`, `(the quoted '"disk "' ends the value at its closing quote, and YAML reads nothing after it as part of the value: quote the whole value, '"disk " + v.mount'; `},
		{"double quotes", "  - id: d\n    set:\n      x: \"v\".pct >= 3", `(the quoted "v" ends the value at its closing quote, and YAML reads nothing after it as part of the value: quote the whole value, 'v.pct >= 3';`},
	} {
		loadErr(t, tc.name, "version: 1\nrunbook: t\nstages:\n"+tc.line+"\n", tc.err)
	}
}

// TestRuleKeyIndentLostSaysWhere: a default: indented under the last
// rule was "unknown key "default" in rule 1 (known keys: when, then,
// label)", and a rule's label: dedented to the decide block listed
// decide's keys: neither said the indent. Each now says whose key it is.
func TestRuleKeyIndentLostSaysWhere(t *testing.T) {
	t.Parallel()
	head := "version: 1\nrunbook: t\nstages:\n  - {id: s, set: {n: 95}}\n  - id: d\n    decide:\n      rules:\n        - when: n >= 90\n          then: hi\n"
	tail := "    branches: {hi: [{id: h, set: {w: 1}}], lo: [{id: l, set: {w: 2}}]}\n"
	loadErr(t, "default under a rule", head+"          label: high\n          default: lo\n"+tail,
		`c.yaml:11:11: stage "d": unknown key "default" in rule 1: it is a key of decide:, not of a rule, so write it level with rules:`)
	loadErr(t, "label under decide", head+"      label: high\n      default: lo\n"+tail,
		`c.yaml:10:7: stage "d": unknown key "label" in decide: it is a key of a rule, so indent it under its rule`)
}

// TestYesNoInAnExpressionSaysBoolean: `set: {enabled: yes}` was refused
// saying to quote the word as a string, '"yes"', where the author (used
// to YAML 1.1) meant the boolean. The error now gives both.
func TestYesNoInAnExpressionSaysBoolean(t *testing.T) {
	t.Parallel()
	loadErr(t, "yes", "version: 1\nrunbook: t\nstages:\n  - {id: s, set: {enabled: yes}}\n",
		`c.yaml:4:28: stage "s": set "enabled": expression "yes" reads yes, which no input, var, stage key, foreach as or index defines (yes is no boolean here, as it was in YAML 1.1: write true for the boolean, or '"yes"' for the text)`)
	loadErr(t, "Off", "version: 1\nrunbook: t\nstages:\n  - {id: s, set: {enabled: Off}}\n", `(Off is no boolean here, as it was in YAML 1.1: write false for the boolean, or '"Off"' for the text)`)
	loadErr(t, "true", "version: 1\nrunbook: t\nstages:\n  - {id: s, set: {enabled: true}}\n", "")
}

// TestInputOverwrittenBeforeItIsReadIsRefused: `set: {n: 85, limit: 95}`
// over the input limit said lo, Consistent, to --input limit=80, under
// which 85 is high: the value given was never read. A stage of the
// chart's list writing an input's or a var's name before any stage or var
// read it is a load error; one read first (by a stage, by the writing
// stage itself, or by a var) loads.
func TestInputOverwrittenBeforeItIsReadIsRefused(t *testing.T) {
	t.Parallel()
	head := "version: 1\nrunbook: t\ninputs:\n  limit: {type: number, default: 90}\n"
	for _, tc := range []struct {
		name, rest, err string
	}{
		{"a set over the input", "stages:\n  - {id: s, set: {n: 85, limit: 95}}\n  - {id: d, set: {hi: n >= limit}}\n",
			`c.yaml:6:6: stage "s": writes the key limit, which is the input limit: the value given for it is never read, as no stage before this one reads it; name the key otherwise, or read limit first`},
		{"an into over a var", "vars: {lim: 95}\nstages:\n  - {id: s, exec: {command: [echo, '5'], parse: json, into: lim}}\n  - {id: d, set: {hi: lim > 3, l: limit}}\n",
			`stage "s": writes the key lim, which is the var lim: its value is never read`},
		{"read first", "stages:\n  - {id: r, set: {given: limit}}\n  - {id: s, set: {limit: 95}}\n  - {id: d, set: {hi: limit > given}}\n", ""},
		{"read by the writer", "stages:\n  - {id: s, set: {limit: limit + 5}}\n", ""},
		{"read by a var", "vars: {warn: limit - 10}\nstages:\n  - {id: s, set: {limit: 95}}\n  - {id: d, set: {hi: warn < limit}}\n", ""},
	} {
		loadErr(t, tc.name, head+tc.rest, tc.err)
	}
}

// TestForeignTemplateOfAChartNameIsRefused: `command: [sqlite3, '{{db}}',
// 'PRAGMA integrity_check']` under a foreach `as: db` ran sqlite3 on a
// database named {{db}}, which sqlite3 made, empty, and every database of
// the list said ok; '$db' did the same. Another tool's template (Jinja,
// Ansible, Helm) of a name the chart defines, in a command item, a shell
// script, an env value or an expression's quoted text, is a load error
// saying what runbook's is, and so is a shell's $NAME in a command item
// or an env value; Go's templates (a docker --format), a {{WORD}} or
// $WORD nothing defines, and a $NAME of a tool with variables of its own
// (jq's --arg) load.
func TestForeignTemplateOfAChartNameIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, exec, err string
	}{
		{"a command item", `{command: [sqlite3, '{{db}}', 'PRAGMA integrity_check']}`, `c.yaml:13:37: stage "check": exec command argument 2 holds {{db}}, a template in another tool's syntax (Jinja, Ansible, Helm): runbook passes it on as those characters, never the value of db, so the command is given a file, host or name called {{db}}; write ${db}, runbook's template`},
		{"spaced, in a longer item", `{command: [psql, '--dbname={{ db }}', -c, 'select 1']}`, `exec command argument 2 holds {{ db }}`},
		{"an input", `{command: [sqlite3, '{{-owner}}', 'select 1']}`, `holds {{-owner}}`},
		{"a shell script", `{shell: 'sqlite3 "{{db}}" "PRAGMA integrity_check"'}`, `exec shell holds {{db}}, a template in another tool's syntax (Jinja, Ansible, Helm): runbook passes it on as those characters, never the value of db, so the command is given a file, host or name called {{db}}; a script is no template: give the value with envFrom: {DB: string(db)} and write "$DB" in the script`},
		{"an env value", `{command: [env], env: {DB: '{{db}}'}}`, `exec env "DB" holds {{db}}`},
		{"runbook's own", `{command: [sqlite3, '${db}', 'PRAGMA integrity_check']}`, ""},
		{"docker's format", `{command: [docker, inspect, --format, '{{.State.Status}} {{json .Config}}', web]}`, ""},
		{"Go's function of a foreach's name", `{command: [docker, ps, --format, '{{index .Labels "app"}} {{ index .Names 0 }}']}`, ""},
		{"a member", `{command: [psql, '--dbname={{ db.name }}']}`, `holds {{ db.name }}`},
		{"a filter", `{command: [sqlite3, '{{ db | lower }}', .tables]}`, `holds {{ db | lower }}`},
		{"a shell's variable", `{command: [sqlite3, '$db', 'PRAGMA integrity_check']}`, `c.yaml:13:37: stage "check": exec command argument 2 holds $db, a shell's variable: runbook passes it on as those characters, never the value of db, so the command is given a file, host or name called $db; command: runs without a shell, so write ${db}, runbook's template`},
		{"a shell's variable given to env", `{command: [env, 'DB=$db', sqlite3, .tables]}`, `exec command argument 2 holds $db, a shell's variable`},
		{"a shell's variable in an env value", `{command: [env], env: {DB: '/srv/$db'}}`, `exec env "DB" holds $db, a shell's variable`},
		{"jq's own variable", `{command: [jq, --arg, db, '${db}', '.[] | select(.name == $db)', list.json]}`, ""},
		{"a tool's own $$", `{command: [tool, '$$db', '$${db}']}`, ""},
		{"an environment variable", `{command: [tool, '$HOME/x']}`, ""},
		{"a shell's variable in a script", `{shell: 'sqlite3 "$db" .tables'}`, ""}, // noted, not refused: ShellReadsChartNames
		{"a word nothing defines", `{command: [tool, '{{release}}']}`, ""},
	} {
		src := `version: 1
runbook: t
inputs:
  owner: {type: string, default: app}
stages:
  - id: per
    foreach:
      items: '["a.db", "b.db"]'
      as: db
      maxBranches: 2
      stages:
        - id: check
          exec: ` + tc.exec + `
`
		loadErr(t, tc.name, src, tc.err)
	}
	loadErr(t, "an expression's quoted text", `version: 1
runbook: t
inputs:
  app: {type: string, default: nginx}
stages:
  - id: conf
    read: {path: '"/etc/{{app}}/app.conf"'}
`, `holds {{app}} inside a quoted text: {{…}} is another tool's template (Jinja, Ansible, Helm), which runbook does not read, so here it is those characters, never the value of app`)
}

// TestSetStageIdReadAsItsKeysSaysHow: `csn.c` over `- id: csn, set: {p:
// …, c: …}` reads a name nothing defines, as every set: key is a name of
// its own; the error said only that, and an author reading CSNs off two
// servers rewrote the expression three times. It says now which name to
// read.
func TestSetStageIdReadAsItsKeysSaysHow(t *testing.T) {
	t.Parallel()
	const chart = `version: 1
runbook: r
stages:
  - id: csn
    set:
      p: '[1]'
      c: '[2]'
  - id: use
    set:
      n: 'len(csn.c) + len(csn)'
`
	loadErr(t, "member", chart, `reads csn, which no input, var, stage key, foreach as or index defines (csn is the id of a set: stage, whose keys are names of their own: read c, not csn.c)`)
	loadErr(t, "no member", strings.Replace(chart, "len(csn.c) + ", "", 1), `(csn is the id of a set: stage, whose keys are names of their own: read p, not csn.p)`)
}

// TestLDAPPasswordAdviceNamesTheFileOption: a bind password given to
// ldapsearch in argv (-w) is refused, and the refusal said to hand it in
// the environment or on standard input (`printf … | ldapsearch …`):
// ldapsearch reads neither, and bound with no password (53, "unauthenticated
// bind … disallowed"). It says -y /dev/stdin now, for a shell: script and
// a command: item alike; other programs keep the usual advice.
func TestLDAPPasswordAdviceNamesTheFileOption(t *testing.T) {
	t.Parallel()
	const head = `version: 1
runbook: r
inputs:
  password: {type: string, secret: true, required: true}
stages:
  - id: s
    exec:
`
	loadErr(t, "shell", head+`      envFrom: {PW: password}
      shell: ldapsearch -x -D cn=admin,dc=example,dc=com -w "$PW" -b dc=example,dc=com
`, `ldapsearch reads a bind password from no environment variable, and -W asks a terminal a run does not have: give it a file with -y, /dev/stdin fed the secret (a command: item with stdin: INPUT, or in a script), and nothing after it, since -y reads the file whole and a newline is part of the password: printf '%s' "$PW" | ldapsearch -y /dev/stdin …`)
	loadErr(t, "command", head+`      command: [/usr/bin/ldapwhoami, -x, -D, "cn=admin,dc=example,dc=com", -w, "${password}"]
`, `ldapwhoami reads a bind password from no environment variable, and -W asks a terminal a run does not have: give it a file with -y, /dev/stdin fed the secret (a command: item with stdin: INPUT, or in a script), and nothing after it, since -y reads the file whole and a newline is part of the password: [ldapwhoami, …, -y, /dev/stdin, …] with stdin: password`)
	loadErr(t, "another program", head+`      command: [mysql, "--password=${password}"]
`, `pass it with envFrom: {PASSWORD: password} (the command reads $PASSWORD) or stdin: password`)
}

// TestMosquittoPasswordAdviceNamesTheOptionsFile: a password given to
// mosquitto_sub in argv (-P) was refused with "have mosquitto_sub read it
// from its environment … or its standard input": it reads neither, and
// an operator who followed the advice had no way left but argv. It names
// mosquitto_sub's options file now ($XDG_CONFIG_HOME/mosquitto_sub), for
// a shell: script and a command: item alike.
func TestMosquittoPasswordAdviceNamesTheOptionsFile(t *testing.T) {
	t.Parallel()
	const head = `version: 1
runbook: r
inputs:
  password: {type: string, secret: true, required: true}
stages:
  - id: s
    exec:
`
	const how = `mosquitto_sub reads a password from no environment variable and not from its standard input: it reads its options file, $XDG_CONFIG_HOME/mosquitto_sub (else ~/.config/mosquitto_sub), one option a line; keep the password there, a line -P PASSWORD (and -u USER) in a file only the account the run uses can read, and name its folder, so the chart holds no secret at all`
	loadErr(t, "shell", head+`      envFrom: {MQTT_PASSWORD: password}
      shell: mosquitto_sub -h 127.0.0.1 -u monitor -P "$MQTT_PASSWORD" -t '$SYS/broker/uptime' -C 1 -W 5
`, how+`: XDG_CONFIG_HOME=/etc/mqtt-check mosquitto_sub -h … (no -P, no $MQTT_PASSWORD)`)
	loadErr(t, "command", head+`      command: [/usr/bin/mosquitto_sub, -h, 127.0.0.1, -u, monitor, -P, "${password}", -t, "$SYS/broker/uptime", -C, "1"]
`, `[mosquitto_sub, -h, …] with env: {XDG_CONFIG_HOME: /etc/mqtt-check} (no -P, and no input password)`)
}

// TestCurlPasswordAdviceNamesItsConfigOnStdin: `curl -u
// "${user}:${password}"` against RabbitMQ's management API was refused
// saying to pass the password with envFrom: {PASSWORD: password}, which
// curl does not read (it would ask no one, and send no password); curl
// reads its options, user among them, from a config on stdin (-K -). It
// says so now, for a command: item and a shell: script alike.
func TestCurlPasswordAdviceNamesItsConfigOnStdin(t *testing.T) {
	t.Parallel()
	const head = `version: 1
runbook: r
inputs:
  password: {type: string, secret: true, required: true}
stages:
  - id: s
    exec:
`
	const how = `curl reads no secret from its environment: give it its options on standard input, -K - (--config -), one a line, the secret's among them: user = "NAME:PASSWORD" for -u, header = "Authorization: Bearer <TOKEN>" for -H (a " or \ in a value written \" and \\)`
	loadErr(t, "command", head+`      command: [curl, -sf, -u, "monitor:${password}", "http://127.0.0.1:15672/api/queues"]
`, how+`: [curl, …, -K, -, …] with stdin: 'user = "NAME:' + password + '"' (or 'header = "Authorization: Bearer ' + password + '"')`)
	loadErr(t, "shell", head+`      envFrom: {PW: password}
      shell: curl -sf -u "monitor:$PW" http://127.0.0.1:15672/api/queues
`, how+`: printf 'user = "%s"\n' "NAME:$PW" | curl -K - …`)
}

// TestSquidclientPasswordAdviceNamesCurl: `squidclient mgr:info@${password}`
// and `squidclient -w "$PW" mgr:info` were refused, rightly, and told to
// pass the password with envFrom: (the command reads $PASSWORD) or stdin:,
// neither of which squidclient reads: it takes the cache manager's
// password in argv alone. The advice names what does read it out of argv:
// curl to the cache manager's URL, the password on its standard input.
func TestSquidclientPasswordAdviceNamesCurl(t *testing.T) {
	t.Parallel()
	const head = `version: 1
runbook: r
inputs:
  password: {type: string, secret: true, required: true}
stages:
  - id: s
    exec:
`
	const how = `squidclient takes the cache manager's password in its argv alone (-w PASSWORD, or mgr:ACTION@ and the password after it), from no environment variable and not from its standard input: ask the cache manager over HTTP with curl, which Squid 3.2 and later serve at /squid-internal-mgr/ACTION, its password on curl's standard input, -K - (--config -), as the line user = ":PASSWORD"`
	loadErr(t, "command", head+`      command: [squidclient, -h, 127.0.0.1, -p, "3128", "mgr:info@${password}"]
`, how)
	loadErr(t, "shell", head+`      envFrom: {PW: password}
      shell: squidclient -h 127.0.0.1 -p 3128 -w "$PW" mgr:info
`, how)
}

// TestMemcstatPasswordAdviceNamesTheBinaryProtocol: memcstat -p "$PW"
// against a memcached run with SASL (-S) was refused saying to have
// memcstat read it from its environment or its standard input, and
// memcstat (libmemcached-tools 1.1) reads a SASL password from neither:
// -p (--password) in its argv is its only way, and memcached under -S
// answers no ASCII command, so `stats | nc` prints nothing. The advice
// names the binary protocol now, asked by a script that reads the
// password from its environment (testdata/wave-php/memcached-sasl).
func TestMemcstatPasswordAdviceNamesTheBinaryProtocol(t *testing.T) {
	t.Parallel()
	const head = `version: 1
runbook: r
inputs:
  password: {type: string, secret: true, required: true}
stages:
  - id: s
    exec:
`
	const how = `memcstat takes a SASL password in its argv alone (-p, --password), from no environment variable and not from its standard input, as do libmemcached-tools' other memc* commands; memcached under -S answers no ASCII command (stats | nc prints nothing): ask its binary protocol from a script that reads the password from its environment`
	loadErr(t, "command", head+`      command: [memcstat, --binary, --servers=127.0.0.1:11211, -u, ops, "--password=${password}"]
`, how)
	loadErr(t, "shell", head+`      envFrom: {MC_PASS: password}
      shell: memcstat --binary --servers=127.0.0.1:11211 -u ops -p "$MC_PASS"
`, how)
}

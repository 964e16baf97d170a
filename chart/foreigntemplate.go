package chart

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// foreignText is a text runbook passes on as written — an exec command
// item, a shell script, an env value — that holds `{{`, kept by the loader
// for checkForeignTemplates, which runs once the chart's names are known.
type foreignText struct {
	pos   Pos
	stage string
	what  string // "exec command argument 2", "exec shell", `exec env "DB"`
	kind  foreignKind
	text  string
	// program is the command's program (argv[0]) for an argument: a tool
	// with variables of its own ($name in jq, awk, perl) reads $NAME as
	// its own.
	program string
}

type foreignKind int

const (
	foreignArg foreignKind = iota
	foreignShell
	foreignEnv
)

// noteForeign keeps text for checkForeignTemplates when it holds `{{`,
// or, outside a script, `$`.
func (l *loader) noteForeign(pos Pos, stage, what string, kind foreignKind, text, program string) {
	if strings.Contains(text, "{{") || kind != foreignShell && strings.Contains(text, "$") {
		l.s.foreign = append(l.s.foreign, foreignText{pos: pos, stage: stage, what: what, kind: kind, text: text, program: program})
	}
}

// shellVariable finds `$NAME`: a shell's variable, which a command item
// (run without a shell) and an env value pass on as those characters.
var shellVariable = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)

// ownVariables are programs whose arguments name variables of their own
// with a $ (jq's --arg, awk's fields, a script for an interpreter or a
// shell, which a run warns of elsewhere): their $NAME is theirs.
var ownVariables = map[string]bool{"jq": true, "gojq": true, "jaq": true, "yq": true, "awk": true, "gawk": true, "mawk": true, "nawk": true, "perl": true, "python": true, "python3": true, "ruby": true, "php": true, "node": true, "sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true, "sed": true}

// foreignTemplate finds a name as Jinja, Ansible, Helm and mustache write
// a value: `{{NAME}}`, `{{ NAME }}`, `{{- NAME -}}`, a member of it
// (`{{db.name}}`, `{{ db['name'] }}`) or a filter over it (`{{ db |
// lower }}`). Go's text/template, which docker and kubectl take, writes
// a field after a dot (`{{.State.Status}}`) and calls a function with
// its arguments after a space (`{{json .Config}}`, `{{index .Labels
// "app"}}` — index being a foreach's name too), and is left alone.
var foreignTemplate = regexp.MustCompile(`\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)(?:\s*(?:-?\}\}|\|)|\.[A-Za-z_]|\[)`)

// checkForeignTemplates refuses a text runbook passes on as written that
// holds another tool's template of a name the chart defines: runbook's
// templates are ${…}, so `command: [sqlite3, '{{db}}', 'PRAGMA
// integrity_check']` under `as: db` opened a database named {{db}} —
// sqlite3 made it, empty — and every database in the list said ok
// (TestForeignTemplateOfAChartNameIsRefused). A `{{WORD}}` no name of the
// chart spells is left alone, as a tool's own (a docker --format).
func (l *loader) checkForeignTemplates(d *defs) {
	for _, f := range l.s.foreign {
		for _, m := range foreignTemplate.FindAllStringSubmatchIndex(f.text, -1) {
			name := f.text[m[2]:m[3]]
			if !d.names[name] {
				continue
			}
			part := f.text[m[0]:]
			if end := strings.Index(part, "}}"); end > 0 {
				part = part[:end+2]
			} else {
				part = f.text[m[0]:m[1]]
			}
			var fix string
			switch f.kind {
			case foreignArg:
				fix = fmt.Sprintf("write ${%s}, runbook's template", name)
			case foreignShell:
				fix = fmt.Sprintf("a script is no template: give the value with envFrom: {%s: string(%s)} and write \"$%s\" in the script", strings.ToUpper(name), name, strings.ToUpper(name))
			case foreignEnv:
				fix = fmt.Sprintf("env: values are literal: compute it with envFrom: {NAME: %s}", name)
			}
			l.errf(f.pos, f.stage, "%s holds %s, a template in another tool's syntax (Jinja, Ansible, Helm): runbook passes it on as those characters, never the value of %s, so the command is given a file, host or name called %s; %s",
				f.what, part, name, part, fix)
			break
		}
		if f.kind != foreignShell && !ownVariables[filepath.Base(f.program)] {
			l.checkShellVariable(f, d)
		}
	}
}

// checkShellVariable refuses a command item or an env value holding
// $NAME, NAME a name the chart defines: a command runs without a shell
// and an env value is literal, so `command: [sqlite3, '$db', …]` opened a
// database named $db, as {{db}} did
// (TestForeignTemplateOfAChartNameIsRefused). `$${NAME}` and `$$NAME`
// write a $ of the tool's own.
func (l *loader) checkShellVariable(f foreignText, d *defs) {
	for _, m := range shellVariable.FindAllStringSubmatchIndex(f.text, -1) {
		if m[0] > 0 && f.text[m[0]-1] == '$' {
			continue
		}
		name := f.text[m[2]:m[3]]
		if !d.names[name] {
			continue
		}
		fix := fmt.Sprintf("command: runs without a shell, so write ${%s}, runbook's template", name)
		if f.kind == foreignEnv {
			fix = fmt.Sprintf("env: values are literal: compute it with envFrom: {NAME: %s}", name)
		}
		l.errf(f.pos, f.stage, "%s holds $%s, a shell's variable: runbook passes it on as those characters, never the value of %s, so the command is given a file, host or name called $%s; %s", f.what, name, name, name, fix)
		return
	}
}

package chart

import (
	"fmt"
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
}

type foreignKind int

const (
	foreignArg foreignKind = iota
	foreignShell
	foreignEnv
)

// noteForeign keeps text for checkForeignTemplates when it holds `{{`.
func (l *loader) noteForeign(pos Pos, stage, what string, kind foreignKind, text string) {
	if strings.Contains(text, "{{") {
		l.s.foreign = append(l.s.foreign, foreignText{pos: pos, stage: stage, what: what, kind: kind, text: text})
	}
}

// foreignTemplate finds `{{NAME`, `{{ NAME` or `{{- NAME`: a name bare
// after the braces, as Jinja, Ansible, Helm and mustache write a value.
// Go's text/template, which docker and kubectl take, writes a field after
// a dot (`{{.State.Status}}`, `{{json .Config}}`), and is left alone
// unless its first word is a name the chart defines.
var foreignTemplate = regexp.MustCompile(`\{\{-?\s*([A-Za-z_][A-Za-z0-9_]*)`)

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
	}
}

package chart

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/openrunbook/runbook/internal/secret"
	"github.com/openrunbook/runbook/rules"
)

// Template is a text with ${EXPR} parts (chart-yaml.md "exec, completed",
// Templates): an exec `command` item or `timeout`. Each part's expression is
// compiled when the chart is loaded, through the loader's one expression
// path, so the names it reads are checked like any other expression's.
//
//	written           runs as
//	-w                -w                (no ${: literal, no Template)
//	"${warn}"         80                (a number in plain decimal)
//	"--host=${h}"     --host=db-1       (a string as it is)
//	"$${HOME}"        ${HOME}           ($${ writes a literal ${)
//	"${n * 1e10}"     10000000000       (never 1e+10)
//
// A template never reads a secret input: that is refused at load, since
// argv is where ps shows it (pass a secret with envFrom: or stdin:).
type Template struct {
	Src   string // as written
	Parts []TemplatePart
	Pos   Pos
}

// TemplatePart is literal text, or one ${EXPR} part (Expr set).
type TemplatePart struct {
	Text string
	Expr *rules.Expr
}

// Literal reports whether t has no ${EXPR} part: its text is the chart's
// as written ("$${HOME}" included), so it holds no run-time value.
func (t *Template) Literal() bool {
	for _, p := range t.Parts {
		if p.Expr != nil {
			return false
		}
	}
	return true
}

// LeadsWithValue reports whether t's text begins with a ${EXPR} part, so
// its first character is a value's, not the chart's: "${host}" does,
// "--host=${h}" and "-${flag}" do not (runbook's optionFromAValue).
func (t *Template) LeadsWithValue() bool {
	return len(t.Parts) > 0 && t.Parts[0].Expr != nil
}

// Render is the template's text with each part replaced by its value
// (TemplateText) read from env.
func (t *Template) Render(env rules.Env) (string, error) {
	var b strings.Builder
	for _, p := range t.Parts {
		if p.Expr == nil {
			b.WriteString(p.Text)
			continue
		}
		v, _, err := p.Expr.Value(env)
		if err != nil {
			return "", fmt.Errorf("${%s}: %w", p.Expr.String(), err)
		}
		s, err := TemplateText(v)
		if err != nil {
			return "", fmt.Errorf("${%s}: %w", p.Expr.String(), err)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// TemplateText is one template part's value as text, the one rule for it:
//
//	string           as it is
//	number           plain decimal, never an exponent (13700000000, 0.5); a
//	                 whole number past int64 its digits (18446744073709551615)
//	bool             true | false
//	null             an error: an empty argument is rarely what was meant
//	list, object     an error: an argument is one word; join it in the
//	                 expression (join(hosts, ","))
func TemplateText(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case bool:
		return strconv.FormatBool(t), nil
	case int:
		return strconv.Itoa(t), nil
	case int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(t), nil
	case float32:
		return plainFloat(float64(t))
	case float64:
		return plainFloat(t)
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return strconv.FormatInt(i, 10), nil
		}
		if wholeDigits(t.String()) {
			// past int64 (a 64-bit counter at 18446744073709551615): its
			// digits, never a float64's 18446744073709552000
			// (TestTemplateNumberPastInt64KeepsItsDigits)
			return t.String(), nil
		}
		f, err := t.Float64()
		if err != nil {
			return "", fmt.Errorf("gave %q, not a number an argument can hold", t.String())
		}
		return plainFloat(f)
	case nil:
		return "", errors.New("gave null: give the part a value (write ${x ?? \"\"} for an empty text)")
	}
	return "", fmt.Errorf("gave %s, not a string, number or bool: an argument is one word; make it one in the expression, such as join(list, \",\")", kindOf(v))
}

// wholeDigits reports whether s spells a whole number in plain digits,
// with a leading minus or none.
func wholeDigits(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func plainFloat(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", fmt.Errorf("gave %v, not a number an argument can hold", f)
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

func kindOf(v any) string {
	switch v.(type) {
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("a %T", v)
}

// templateRead is one template part the loader compiled, kept for the
// check that no template reads a secret (checkTemplateSecrets).
type templateRead struct {
	e     entry // as seen from the part (partPos)
	stage string
	what  string
	x     *rules.Expr
}

// template reads a text that may hold ${EXPR} parts. nil and true: the
// text has no `${` (it is literal, as written). Each part is compiled
// through compilePart; an unclosed or empty part is an error at its place.
func (l *loader) template(e entry, stage, what string) (*Template, bool) {
	src, ok := l.text(e, stage, what)
	if !ok || !strings.Contains(src, "${") {
		return nil, ok
	}
	raw, err := splitTemplate(src)
	if err != nil {
		l.errf(l.partAt(e, err.at), stage, "%s: template %q: %s", what, src, err.msg)
		return nil, false
	}
	t := &Template{Src: src, Pos: e.valPos}
	good := true
	for _, r := range raw {
		if !r.expr {
			t.Parts = append(t.Parts, TemplatePart{Text: r.text})
			continue
		}
		x, ok := l.compilePart(l.partPos(e, r.at), r.text, stage, what, l.partAt(e, r.at))
		good = good && ok
		t.Parts = append(t.Parts, TemplatePart{Expr: x})
	}
	return t, good
}

// partPos is e as seen from a part that starts at rune offset at of e's
// text: for a one-line scalar its column moves there (exprPos adds the
// quote and the position inside the part); otherwise it stays at e.
func (l *loader) partPos(e entry, at int) entry {
	if sn, ok := e.val.(*ast.StringNode); ok && !strings.Contains(sn.Value, "\n") {
		e.valPos.Col += at
	}
	return e
}

// partAt is where the rune at offset at of e's text was written.
func (l *loader) partAt(e entry, at int) Pos {
	return l.exprPos(l.partPos(e, at), &rules.CompileError{Line: 1, Column: 1})
}

// compilePart compiles one template part (e is as seen from it, at where
// it starts) through the loader's expression path: noted for the
// load-time names check, a compile error at its place.
func (l *loader) compilePart(e entry, src, stage, what string, at Pos) (*rules.Expr, bool) {
	if strings.TrimSpace(src) == "" {
		l.errf(at, stage, "%s: template part ${} is empty: write an expression inside it, or $${ for a literal ${", what)
		return nil, false
	}
	x, err := rules.Compile(src)
	if err != nil {
		var ce *rules.CompileError
		if errors.As(err, &ce) {
			l.errf(l.exprPos(e, ce), stage, "%s: template part ${%s} does not compile: %s", what, src, ce.Msg)
		} else {
			l.errf(e.valPos, stage, "%s: template part ${%s} does not compile: %v", what, src, err)
		}
		return nil, false
	}
	l.noteCompiled(e, stage, what, x)
	l.s.compiled[len(l.s.compiled)-1].part = true
	l.templateReads = append(l.templateReads, templateRead{e: e, stage: stage, what: what, x: x})
	return x, true
}

// rawPart is one piece of a template's text: literal text, or a part's
// expression source; at is the rune offset of its first rune.
type rawPart struct {
	text string
	expr bool
	at   int
}

type templateError struct {
	at  int
	msg string
}

// splitTemplate splits a text into literal pieces and ${EXPR} parts. A
// part ends at the `}` that closes it, braces inside it counted and
// string literals ('…', "…", `…`) skipped, so ${ {"a": 1}.a } and
// ${"}"} are one part each. `$${` is a literal `${`.
func splitTemplate(src string) ([]rawPart, *templateError) {
	rs := []rune(src)
	var out []rawPart
	var lit strings.Builder
	litAt := 0
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, rawPart{text: lit.String(), at: litAt})
			lit.Reset()
		}
	}
	for i := 0; i < len(rs); {
		switch {
		case rs[i] == '$' && i+2 < len(rs) && rs[i+1] == '$' && rs[i+2] == '{':
			if lit.Len() == 0 {
				litAt = i
			}
			lit.WriteString("${")
			i += 3
		case rs[i] == '$' && i+1 < len(rs) && rs[i+1] == '{':
			end, ok := closeBrace(rs, i+2)
			if !ok {
				return nil, &templateError{at: i, msg: "a ${ part is not closed: end it with }, or write $${ for a literal ${"}
			}
			flush()
			out = append(out, rawPart{text: string(rs[i+2 : end]), expr: true, at: i + 2})
			i = end + 1
			litAt = i
		default:
			if lit.Len() == 0 {
				litAt = i
			}
			lit.WriteRune(rs[i])
			i++
		}
	}
	flush()
	return out, nil
}

// closeBrace is the index of the `}` closing a part whose expression
// starts at i.
func closeBrace(rs []rune, i int) (int, bool) {
	depth := 0
	for ; i < len(rs); i++ {
		switch c := rs[i]; c {
		case '"', '\'', '`':
			for i++; i < len(rs) && rs[i] != c; i++ {
				if rs[i] == '\\' && c != '`' {
					i++
				}
			}
		case '{':
			depth++
		case '}':
			if depth == 0 {
				return i, true
			}
			depth--
		}
	}
	return 0, false
}

// checkTemplateSecrets refuses every template part of this file that reads
// a secret input of its chart, or a name computed from one (a var, a set
// key or a foreach as whose expression reads a secret, followed to its
// end), or the whole $env where the chart has a secret: a secret never goes
// into argv (chart-yaml.md, Templates). A shell: script that hands such a
// name's variable to a program's arguments is refused too
// (checkShellSecrets).
func (l *loader) checkTemplateSecrets(spec *Spec) {
	if spec == nil {
		return
	}
	l.checkTemplateNamedSecrets(spec)
	from, via, secrets := secretNames(spec)
	if len(secrets) == 0 {
		return
	}
	l.checkShellSecrets(spec, from) // shellsecret.go
	for _, t := range l.templateReads {
		if t.x.ReadsWholeEnv() {
			l.errf(l.exprPos(t.e, &rules.CompileError{Line: 1, Column: 1}), t.stage, "%s: template part ${%s} reads $env as a whole, which holds the secret input %q: a secret never goes into argv, where ps shows it; name the keys the part reads, and pass %s with envFrom: or stdin:",
				t.what, t.x.String(), secrets[0], secrets[0])
			continue
		}
		for _, r := range t.x.Roots() {
			in, ok := from[r]
			if !ok {
				continue
			}
			pos := l.exprPos(t.e, &rules.CompileError{Line: 1, Column: 1})
			for _, id := range t.x.Idents() {
				if id.Name == r {
					pos = l.exprPos(t.e, &rules.CompileError{Line: id.Line, Column: id.Column})
					break
				}
			}
			held := ""
			if r != in {
				held = fmt.Sprintf(" (%s is %s, computed from it)", r, via[r])
			}
			if a, ok := passwordFromFile(stageProgram(spec, t.stage)); ok {
				l.errf(pos, t.stage, "%s: template part ${%s} reads the secret input %q%s: a secret never goes into argv, where ps shows it; %s: %s",
					t.what, t.x.String(), in, held, a.how, a.commandForm(r))
				break
			}
			l.errf(pos, t.stage, "%s: template part ${%s} reads the secret input %q%s: a secret never goes into argv, where ps shows it; pass it with envFrom: {%s: %s} (the command reads $%s) or stdin: %s",
				t.what, t.x.String(), in, held, envName(in), r, envName(in), r)
			break
		}
	}
}

// stageProgram is the program the exec command: of the stage with this id
// runs (its first item as written), "" when no such stage, several of
// that id, or its program is a template.
func stageProgram(spec *Spec, id string) string {
	prog, n := "", 0
	walkStages(spec.Stages, func(st *StageSpec) bool {
		if st.ID == id && st.Exec != nil {
			n++
			if len(st.Exec.Command) > 0 && !strings.Contains(st.Exec.Command[0], "${") {
				prog = st.Exec.Command[0]
			}
		}
		return true
	})
	if n != 1 {
		return ""
	}
	return prog
}

// secretNames are the names that hold a secret of spec: each secret
// input, and each name computed from one (a var, a set key or a foreach
// as whose expression reads one, followed to its end): from maps each to
// the secret input it holds, via says how a computed one was, secrets
// lists the secret inputs in order. The one taint rule of argv's checks
// (checkTemplateSecrets, checkShellSecrets).
func secretNames(spec *Spec) (from, via map[string]string, secrets []string) {
	from = map[string]string{} // a name holding a secret → the secret input it holds
	via = map[string]string{}  // a name computed from one → how
	for _, in := range spec.Inputs {
		if in.Secret {
			from[in.Name] = in.Name
			secrets = append(secrets, in.Name)
		}
	}
	if len(secrets) == 0 {
		return from, via, nil
	}
	taint := secretFlows(spec)
	for changed := true; changed; {
		changed = false
		for _, f := range taint {
			if _, done := from[f.key]; done {
				continue
			}
			for _, r := range f.x.Roots() {
				if in, ok := from[r]; ok {
					from[f.key], via[f.key] = in, f.how
					changed = true
					break
				}
			}
		}
	}
	return from, via, secrets
}

// checkTemplateNamedSecrets refuses a template part that reads an input
// not marked secret whose name says it holds one (secret.NamedSecret, as
// envFrom: and inheritEnv: judge a variable's name): `[sshpass, -p,
// "${sshPassword}", ssh, …]` over an input sshPassword left unmarked put
// the password in argv, where ps shows it, and the record kept it five
// times (TestTemplateReadingAnInputNamedAsASecretIsRefused,
// testdata/wave-fleet). A name the guess is wrong of is renamed, or the
// value passed as the error says.
func (l *loader) checkTemplateNamedSecrets(spec *Spec) {
	named := map[string]bool{}
	for _, in := range spec.Inputs {
		// a name ending in KEY (sshKey, -i ${sshKey}) is as often the
		// key's path as the key: only the words that name a secret whole
		// (a password, a token) are judged here
		n := strings.ToUpper(envName(in.Name))
		if path, ok := in.Default.(string); ok && in.HasDefault && secret.IsPath(path) {
			// passwd: /etc/passwd names the file pwck and getent read,
			// its default says so (TestTemplateReadingAnInputNamedAsASecretIsRefused)
			continue
		}
		if !in.Secret && secret.NamedSecret(n) && !strings.HasSuffix(n, "KEY") {
			named[in.Name] = true
		}
	}
	if len(named) == 0 {
		return
	}
	for _, t := range l.templateReads {
		for _, id := range t.x.Idents() {
			if !named[id.Name] {
				continue
			}
			pos := l.exprPos(t.e, &rules.CompileError{Line: id.Line, Column: id.Column})
			l.errf(pos, t.stage, "%s: template part ${%s} reads the input %q, whose name says it holds a secret, and a template puts it in argv, where ps shows it and the record keeps it: mark it secret: true and pass it with envFrom: {%s: %s} (the command reads $%s; sshpass -e reads $SSHPASS) or stdin: %s; if it holds no secret, give it a name that does not say so",
				t.what, t.x.String(), id.Name, envName(id.Name), id.Name, envName(id.Name), id.Name)
			break
		}
	}
}

// checkTimeoutNumbers refuses an exec timeout written as ${x} alone where
// x is an input of type number no stage writes: it renders a bare number
// ("5"), which is no duration, so the stage could only fail, and it
// failed when it ran, not when the chart loaded. A name a stage writes
// too (a set: key, a foreach as) may hold a duration when it is read.
func (l *loader) checkTimeoutNumbers(spec *Spec, d *defs) {
	numbers := map[string]bool{}
	for _, in := range spec.Inputs {
		if in.Type == "number" && len(d.writers[in.Name]) == 0 {
			numbers[in.Name] = true
		}
	}
	if len(numbers) == 0 {
		return
	}
	walkStages(spec.Stages, func(st *StageSpec) bool {
		if st.Exec == nil || st.Exec.TimeoutTemplate == nil {
			return true
		}
		t := st.Exec.TimeoutTemplate
		if len(t.Parts) != 1 || t.Parts[0].Expr == nil {
			return true
		}
		if name := strings.TrimSpace(t.Parts[0].Expr.String()); numbers[name] {
			l.errf(t.Pos, st.ID, "exec timeout %q: input %q is a number, which renders as a bare number (\"5\"), not a duration; write \"${%s}s\" for seconds, or declare %s as type: duration (given as 30s, 2m)", t.Src, name, name, name)
		}
		return true
	})
}

// secretFlow is one name an expression computes: a secret it reads flows
// into the name.
type secretFlow struct {
	key, how string
	x        *rules.Expr
}

// secretFlows lists the names a chart computes from expressions: its vars,
// every set key, every foreach as (from its items), in any branch.
func secretFlows(spec *Spec) []secretFlow {
	var out []secretFlow
	add := func(key, how string, v rules.Valuer) {
		if x, ok := v.(*rules.Expr); ok && x != nil {
			out = append(out, secretFlow{key: key, how: how, x: x})
		}
	}
	for _, v := range spec.Vars {
		add(v.Key, "a var", v.Expr)
	}
	var walk func([]StageSpec)
	walk = func(stages []StageSpec) {
		for i := range stages {
			st := &stages[i]
			for _, a := range st.Set {
				add(a.Key, fmt.Sprintf("set by stage %q", st.ID), a.Expr)
			}
			if fe := st.ForEach; fe != nil {
				if fe.Items != nil {
					add(fe.As, fmt.Sprintf("foreach %q's item", st.ID), fe.Items)
				}
				walk(fe.Stages)
			}
			if st.Subflow != nil {
				walk(st.Subflow.Stages)
			}
			for _, brs := range [][]BranchSpec{st.Branches, st.Parallel} {
				for _, br := range brs {
					walk(br.Stages)
				}
			}
		}
	}
	walk(spec.Stages)
	return out
}

// envName is an input's name as an environment variable: DB_PASSWORD for
// dbPassword or db-password.
func envName(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '-' || r == '.' || r == ' ':
			b.WriteRune('_')
		case i > 0 && r >= 'A' && r <= 'Z' && rs[i-1] >= 'a' && rs[i-1] <= 'z':
			b.WriteRune('_')
			b.WriteRune(r)
		default:
			b.WriteString(strings.ToUpper(string(r)))
		}
	}
	return b.String()
}

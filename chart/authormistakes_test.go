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

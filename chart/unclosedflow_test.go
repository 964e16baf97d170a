package chart

import (
	"strings"
	"testing"
)

// TestUnclosedFlowMapSaysWhereItOpened: an input written `{type: list,
// description: every host` with no closing brace was refused at the
// next line, `chart.yaml:5:3: the file is not valid YAML: ',' or '}'
// must be specified`, which names a line that is right. The error is
// still at the parser's place, and says which { (or [), at which line and
// column, is not closed.
func TestUnclosedFlowMapSaysWhereItOpened(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, want string }{
		{`version: 1
runbook: c
inputs:
  hosts: {type: list, required: true, description: every host
  maxAge: {type: duration, default: 26h}
stages:
  - id: s
    set: {a: 1}
`, `chart.yaml:5:3: the file is not valid YAML: ',' or '}' must be specified: the { at 4:10 is not closed by a }`},
		{`version: 1
runbook: c
inputs:
  hosts: {type: list, default: [web1, web2}
stages:
  - id: s
    set: {a: 1}
`, `chart.yaml:4:43: the file is not valid YAML: ',' or ']' must be specified: the [ at 4:32 is not closed by a ]`},
	} {
		_, err := Parse("chart.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse = %v\nwant an error holding %s", err, tc.want)
		}
	}
}

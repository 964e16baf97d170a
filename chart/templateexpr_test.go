package chart

import (
	"strings"
	"testing"
)

// TestTemplateInAnExpressionSaysWriteTheName: exec's command takes
// templates (`${path}`), and a read: path, a set: value or a when: is an
// expression, so `read: {path: '${path}'}` was refused with `unexpected
// token Bracket("{")` and no word of why, and `/etc/${app}.conf` with the
// advice to quote it whole, '"/etc/${app}.conf"', a path that reads a
// file named with the ${ in it. It says now that ${…} is a
// template's, and what to write: the name, or text joined with +
// (testdata/wave-drift/keys).
func TestTemplateInAnExpressionSaysWriteTheName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ path, want string }{
		{`${path}`, `write path`},
		{`/etc/${app}.conf`, `write "/etc/" + app + ".conf"`},
	} {
		src := "version: 1\nrunbook: m\ninputs:\n  path: {type: string, default: /etc/a.conf}\n  app: {type: string, default: a}\nstages:\n  - id: conf\n    read: {path: '" + tc.path + "'}\n"
		_, err := Parse("chart.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), "template") || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), `'"`+tc.path+`"'`) {
			t.Errorf("%s: error %v\nwant it to say a template is exec's, and %s", tc.path, err, tc.want)
		}
	}
}

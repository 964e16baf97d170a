package record

import "testing"

// TestToolErrorReadsNpmLsProblemsAsItsAnswer: npm's error lines on stderr
// under a declared code are its failure (npm audit's 1 over a registry
// that refused), save an error code npm gives its answer under: `npm ls`
// reports a tree's problems as `npm error code ELSPROBLEMS`, exit 1, and
// that 1 is the answer a chart declares `problems`.
func TestToolErrorReadsNpmLsProblemsAsItsAnswer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, stderr, want string }{
		{"audit refused", "npm warn audit 405 Method Not Allowed\nnpm error audit endpoint returned an error\n", "npm error audit endpoint returned an error"},
		{"npm 8", "npm ERR! code ENOLOCK\n", "npm ERR! code ENOLOCK"},
		{"ls problems", "npm error code ELSPROBLEMS\nnpm error missing: minimist@0.0.8, required by demo@1.0.0\n", ""},
		{"ls problems, npm 8", "npm ERR! code ELSPROBLEMS\nnpm ERR! extraneous: x@1.0.0\n", ""},
		{"a warning", "npm warn config production Use `--omit=dev` instead.\n", ""},
		{"another tool's words", "my-npm errors: none\n", ""},
		{"nothing", "", ""},
	} {
		if got := ToolError(tc.stderr); got != tc.want {
			t.Errorf("%s: ToolError = %q; want %q", tc.name, got, tc.want)
		}
	}
}

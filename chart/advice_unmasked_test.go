package chart

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/secret"
)

// TestAdviceReadsAsNoSecret: plan prints its notes, and a run its
// warnings, masked by form, and squidclient's advice printed
// "mgr:ACTION@*** from no environment variable" where it said
// "mgr:ACTION@PASSWORD), from …": a placeholder in advice written as a
// secret's form is taken for one. No text the loader, the record, the
// runtime, the rules, the parse modes or the CLI writes (a note, an
// error, advice) holds a secret's form.
func TestAdviceReadsAsNoSecret(t *testing.T) {
	t.Parallel()
	var files []string
	// the packages whose words reach a user: the loader's, the record's
	// items, the runtime's warnings, the rules' errors, the parse modes',
	// the CLI's
	for _, dir := range []string{".", "../record", "../runbook", "../rules", "../internal/parse", "../cmd/runbook"} {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil || len(s) < 40 || !strings.Contains(s, " ") {
				return true
			}
			if m := secret.ByForm(s); m != s {
				t.Errorf("%s: %q reads as holding a secret: masked, it is %q", fset.Position(lit.Pos()), s, m)
			}
			return true
		})
	}
}

package proc

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNoEnginePackage keeps the arrow pointing down: proc returns
// plain process facts and imports no engine package of this module (it used
// to import plugins/label to file settlements, the one arrow that ran back
// up). Its one import of the module is internal/secret, the leaf that owns
// masking, so a captured stream is masked by the same home as every other
// text (docs/ARCHITECTURE.md).
func TestImportsNoEnginePackage(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/openrunbook/runbook/") && path != "github.com/openrunbook/runbook/internal/secret" {
				t.Errorf("%s imports %s; proc imports nothing of the module but internal/secret", name, path)
			}
		}
	}
}

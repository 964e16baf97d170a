package chart

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse: any bytes end in a Spec or in LoadErrors that each name a
// position and say something — never a panic (Parse's own recover would
// turn one into "the loader failed", which fails the target too).
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/load/good/*.yaml", "../testdata/bad/*.yaml", "../testdata/issue13/*/*.yaml"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	dir := f.TempDir() // subflow charts resolve here: nothing to find
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := Parse(filepath.Join(dir, "fuzz.yaml"), data)
		if err == nil {
			if spec == nil {
				t.Fatal("Parse returned neither a Spec nor an error")
			}
			return
		}
		if spec != nil {
			t.Fatal("Parse returned a Spec with its errors")
		}
		var les LoadErrors
		if !errors.As(err, &les) || len(les) == 0 {
			t.Fatalf("error %T is not a non-empty LoadErrors: %v", err, err)
		}
		for _, e := range les {
			if e.Msg == "" {
				t.Fatalf("an error with no message at %v", e.Pos)
			}
			if strings.Contains(e.Msg, "the loader failed") {
				t.Fatalf("the loader panicked: %s", e.Msg)
			}
		}
	})
}

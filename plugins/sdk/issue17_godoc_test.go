package sdk_test

import (
	"os/exec"
	"reflect"
	"regexp"
	"testing"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/plugins/label"
)

// TestIssue17GoDocShowsFields: `go doc ./plugins/sdk Arg` showed only
// `type Arg = plugins.Arg`, no field (issue #17). Every exported field (or
// method) of each public type must be listed in the go doc output of its
// sdk name, so a field added to package plugins without its line here
// fails this test.
func TestIssue17GoDocShowsFields(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	t.Parallel()
	types := map[string]reflect.Type{
		"Stage":       reflect.TypeFor[plugins.Stage](),
		"Description": reflect.TypeFor[plugins.Description](),
		"Arg":         reflect.TypeFor[plugins.Arg](),
		"Request":     reflect.TypeFor[plugins.Request](),
		"Response":    reflect.TypeFor[plugins.Response](),
		"Facts":       reflect.TypeFor[label.Facts](),
	}
	for name, typ := range types {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("go", "doc", ".", name).CombinedOutput()
			if err != nil {
				t.Fatalf("go doc . %s: %v\n%s", name, err, out)
			}
			var members []string
			if typ.Kind() == reflect.Interface {
				for i := range typ.NumMethod() {
					members = append(members, typ.Method(i).Name)
				}
			} else {
				for i := range typ.NumField() {
					if f := typ.Field(i); f.IsExported() {
						members = append(members, f.Name)
					}
				}
			}
			if len(members) == 0 {
				t.Fatalf("%s has no members to look for", name)
			}
			for _, m := range members {
				// A member is listed at the start of a doc line: `Name type …`
				// or `Name(…)`.
				if !regexp.MustCompile(`(?m)^\s+` + m + `[\s(]`).Match(out) {
					t.Errorf("go doc . %s does not list %s:\n%s", name, m, out)
				}
			}
		})
	}
}

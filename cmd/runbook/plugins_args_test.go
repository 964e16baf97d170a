package main

import (
	"testing"

	"github.com/openrunbook/runbook/plugins"
)

// TestArgWords: how `runbook plugins` and `plugins check` list an
// argument; a sensitive argument's default is never shown.
func TestArgWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		arg  plugins.Arg
		want string
	}{
		{plugins.Arg{Name: "target", Type: "string", Required: true}, "target string (required)"},
		{plugins.Arg{Name: "n", Type: "integer", Default: 3, HasDefault: true}, "n integer = 3"},
		{plugins.Arg{Name: "token", Type: "string", Default: "dflt-tok-5566", HasDefault: true, Sensitive: true}, "token string = ***"},
		{plugins.Arg{Name: "any"}, "any"},
	} {
		if got := argWords(tc.arg); got != tc.want {
			t.Errorf("argWords(%+v) = %q, want %q", tc.arg, got, tc.want)
		}
	}
}

package runbook

import (
	"testing"

	"github.com/openrunbook/runbook/plugins"
	"github.com/openrunbook/runbook/rules"
)

// A plugin's result may be no larger than a value a chart could make: the
// two bounds live in packages that may not import each other (plugins
// imports no expr), so this holds them equal.
func TestPluginResultCapIsTheRunsValueCap(t *testing.T) {
	if plugins.MaxResultBytes != rules.DefaultMaxValue {
		t.Errorf("plugins.MaxResultBytes = %d, rules.DefaultMaxValue = %d: a plugin's result and an expression's value are bounded alike", plugins.MaxResultBytes, rules.DefaultMaxValue)
	}
}

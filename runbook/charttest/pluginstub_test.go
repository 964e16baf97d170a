package charttest

import "testing"

// TestPluginStubFactsAreFiled: a stubbed call of a plugin that runs code
// filed no script row, so a case stood Consistent over a package manager
// that exited 2, where a real run's row said so and stood Not sure. A
// plugin stub's facts: are filed as the call's row (and held to what a
// real plugin's facts are held to: exit 0 beside a signal is refused).
func TestPluginStubFactsAreFiled(t *testing.T) {
	t.Parallel()
	allPass(t, "../../testdata/charttest/pluginfacts/chart_test.yaml", 4)
}

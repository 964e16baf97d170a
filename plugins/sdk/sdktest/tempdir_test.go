package sdktest

import "testing"

// tempDirSpy counts the temp dirs a test asks for.
type tempDirSpy struct {
	testing.TB
	made int
}

func (s *tempDirSpy) TempDir() string {
	s.made++
	return s.TB.TempDir()
}

// TestPluginProcessMakesNoTempDir: Run wrote its chart into a temp dir
// before it knew it was the plugin process, which serves and never returns
// (or stays out of the way and exits), so the dir was never removed: each
// run of this package's tests left 35 /tmp/TestName…/001/chart.yaml.
func TestPluginProcessMakesNoTempDir(t *testing.T) {
	t.Setenv(envServe, "a-key-no-plugin-here-has")
	spy := &tempDirSpy{TB: t}
	if res := Run(spy, "version: 1\nrunbook: x\nstages: [{id: s, set: {x: 1}}]\n"); !res.inert {
		t.Fatal("Run in a plugin process did not stay out of the way")
	}
	if spy.made != 0 {
		t.Errorf("Run in a plugin process made %d temp dirs, which nothing removes; want none", spy.made)
	}
}

package version

import (
	"runtime/debug"
	"testing"
)

func TestOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want Build
	}{
		{"no build info", nil, Build{Release: Release}},
		{"a checkout", &debug.BuildInfo{
			GoVersion: "go1.26.0",
			Main:      debug.Module{Path: "github.com/openrunbook/runbook", Version: "(devel)"},
			Settings: []debug.BuildSetting{
				{Key: "-buildmode", Value: "exe"},
				{Key: "vcs", Value: "git"},
				{Key: "vcs.revision", Value: "cd27651aa"},
				{Key: "vcs.time", Value: "2026-12-04T06:00:00Z"},
				{Key: "vcs.modified", Value: "true"},
			},
		}, Build{Release: Release, Go: "go1.26.0", Module: "github.com/openrunbook/runbook", Version: "(devel)",
			Revision: "cd27651aa", Time: "2026-12-04T06:00:00Z", Modified: true}},
		{"go install at a tag, clean", &debug.BuildInfo{
			Main:     debug.Module{Path: "github.com/openrunbook/runbook", Version: "v0.1.0"},
			Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "false"}},
		}, Build{Release: Release, Module: "github.com/openrunbook/runbook", Version: "v0.1.0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Of(tc.bi); got != tc.want {
				t.Errorf("Of = %+v, want %+v", got, tc.want)
			}
		})
	}
}

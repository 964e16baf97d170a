// Package version holds the release this build reports, for every package
// that names it in words (the CLI's version, a record reader's refusal)
// without importing the packages above it, and what the Go toolchain
// stamped into the binary about where it came from (Of).
package version

import "runtime/debug"

// Release is the runbook release this build reports.
const Release = "0.1.0-dev"

// Build is where a binary came from, as its build info says: the main
// module's path and version, and the VCS revision it was built at. A field
// the build info does not hold is empty: a binary built outside a checkout
// (or with -buildvcs=false) has no revision, and `go build` in a checkout
// reports the module version "(devel)".
type Build struct {
	Release  string `json:"release"`
	Go       string `json:"go,omitempty"`
	Module   string `json:"module,omitempty"`
	Version  string `json:"moduleVersion,omitempty"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"revisionTime,omitempty"`
	// Modified: the checkout had changes not committed at Revision.
	Modified bool `json:"modified,omitempty"`
}

// Current is this binary's Build, read from runtime/debug.ReadBuildInfo.
func Current() Build {
	bi, _ := debug.ReadBuildInfo()
	return Of(bi)
}

// Of reads a Build from bi (nil: only the release is known). It reads the
// settings vcs.revision, vcs.time and vcs.modified, and nothing else.
func Of(bi *debug.BuildInfo) Build {
	b := Build{Release: Release}
	if bi == nil {
		return b
	}
	b.Go, b.Module, b.Version = bi.GoVersion, bi.Main.Path, bi.Main.Version
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}

// Package version holds the release this build reports, for every package
// that names it in words (the CLI's version, a record reader's refusal)
// without importing the packages above it.
package version

// Release is the runbook release this build reports.
const Release = "0.1.0-dev"

//go:build !race

package temporal_test

// raceDetector says the tests run under the race detector, which makes
// the 20k-item conformance run too slow to be a default.
const raceDetector = false

//go:build !linux

package sdk

// setParentDeathSignal: no parent-death signal here; the poll does it.
func setParentDeathSignal() {}

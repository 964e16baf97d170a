//go:build !linux

package sdk

// setParentDeathSignal: no parent-death signal here; the poll does it.
func setParentDeathSignal() {}

// killOwnGroup: the plugin's children are left to the host here.
func killOwnGroup() {}

//go:build !linux

package sdk

import "golang.org/x/sys/unix"

// setParentDeathSignal: no parent-death signal here; the poll does it.
func setParentDeathSignal() {}

func dup2(from, to int) error { return unix.Dup2(from, to) }

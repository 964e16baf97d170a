//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

// lockDir locks nothing where flock(2) is not: two runs pausing at once
// in one folder may still choose one file (writeRunRecord).
func lockDir(string) (unlock func()) { return func() {} }

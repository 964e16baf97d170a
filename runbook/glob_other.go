//go:build !unix

package runbook

import "errors"

func notDirError() error { return errors.New("not a directory") }

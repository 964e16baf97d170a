package runbook

// RunAs makes the run's processes seem to run as uid, until the returned
// function is called: the one fact of who ran a command that a test on a
// root CI machine cannot give for real.
func RunAs(uid int) (restore func()) {
	old := euid
	euid = func() int { return uid }
	return func() { euid = old }
}

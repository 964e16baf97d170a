package chart

import "path/filepath"

// DpkgVerifyExitAnswer notes a dpkg --verify (-V) whose exitCodes:
// declares a non-zero code an answer: dpkg 1.21.22 exits 0 over the
// files it finds changed or missing (its findings are the lines it
// prints, `??5??????   /usr/sbin/sshd`, `missing     /usr/bin/ssh`), and
// 1 over a package that is not installed (`dpkg: package 'x' is not
// installed`). `dpkg --verify openssh-server` under `exitCodes: {0:
// intact, 1: modified}` said intact, OK, Consistent, over a changed
// sshd, and modified of a package misspelt
// (testdata/wave-integrity/dpkg-verify-exit; TestDpkgVerifyExitIsNoted).
// "" for none.
func (e *ExecSpec) DpkgVerifyExitAnswer() string {
	if e == nil {
		return ""
	}
	declared := false
	for c := range e.ExitCodes {
		if c != 0 {
			declared = true
		}
	}
	if !declared {
		return ""
	}
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "dpkg" {
			return ""
		}
		for _, a := range argv[1:] {
			if a == "-V" || a == "--verify" {
				return "it runs dpkg --verify with exitCodes: declaring a non-zero code an answer, but dpkg exits 0 over the files it finds changed or missing (they are the lines it prints: ??5?????? PATH, missing PATH) and 1 over a package that is not installed: its code says only whether it could verify; judge the lines it prints (parse: {as: regex, …}) and leave its non-zero codes failures"
			}
		}
		return ""
	})
}

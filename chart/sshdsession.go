package chart

import (
	"path/filepath"
	"strings"
)

// JournalOfSshdAlone is the note for an exec stage whose journalctl picks
// sshd's entries by its name (-t sshd, --identifier=sshd,
// SYSLOG_IDENTIFIER=sshd, _COMM=sshd) and not sshd-session's, "" otherwise:
// OpenSSH 9.8 split sshd into a listener and a program per connection,
// sshd-session, which writes the failed passwords, so such a journalctl
// reads none of them there and a count of failures over it said 0, ok,
// Consistent, under a brute force (wave-f2b).
//
//	[journalctl, -t, sshd, --since, -1h]                  noted
//	[journalctl, -t, sshd, -t, sshd-session, --since, -1h] not noted
//	[journalctl, -u, ssh, --since, -1h]                   not noted (the unit holds both)
func (e *ExecSpec) JournalOfSshdAlone() string {
	if e == nil {
		return ""
	}
	said := e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "journalctl" {
			return ""
		}
		sshd, session := false, false
		for i := 1; i < len(argv); i++ {
			name := ""
			switch a := argv[i]; {
			case (a == "-t" || a == "--identifier") && i+1 < len(argv):
				name = argv[i+1]
				i++
			case strings.HasPrefix(a, "-t") && !strings.HasPrefix(a, "--"):
				name = a[2:]
			default:
				for _, p := range []string{"--identifier=", "SYSLOG_IDENTIFIER=", "_COMM="} {
					if v, ok := strings.CutPrefix(a, p); ok {
						name = v
					}
				}
			}
			switch name {
			case "sshd":
				sshd = true
			case "sshd-session":
				session = true
			}
		}
		if !sshd || session {
			return ""
		}
		return "journalctl"
	})
	if said == "" {
		return ""
	}
	return "its journalctl picks sshd's entries by its name, and since OpenSSH 9.8 the failed passwords are written by sshd-session (sshd-session[4242]: Failed password for …), which it does not pick, so a count of them there is 0 under a brute force; add -t sshd-session (the two are read together), or read the unit (-u ssh, or -u sshd where the unit is so named)"
}

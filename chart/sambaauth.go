package chart

import (
	"path/filepath"
	"regexp"
	"strings"
)

// sambaClients are Samba's command-line clients, which take a password
// after a % in -U (--user) or in --password, and read it from the
// environment (PASSWD) or an authentication file (-A) too.
var sambaClients = map[string]bool{
	"smbclient": true, "rpcclient": true, "smbcacls": true, "smbcquotas": true,
	"smbtree": true, "smbget": true, "net": true, "samba-tool": true,
}

// sambaPasswordInShell is a shell line giving a Samba client a password in
// its argv: -U user%PW (glued or not), --user=user%PW, --password PW.
var sambaPasswordInShell = regexp.MustCompile(`(^|[\s;&|(/])(smbclient|rpcclient|smbcacls|smbcquotas|smbtree|smbget|net|samba-tool)\s([^|;&\n]*\s)?(-U\s*\S*%|--user[=\s]\S*%|--password([=\s]|$))`)

// SambaPasswordInArgv is the note for an exec that gives a Samba client
// its password in argv ("" otherwise): -U user%PW, --user=user%PW or
// --password PW. argv is what ps shows every user of the host, and the
// record keeps it as the run rendered it: `[smbclient, //h/share, -U,
// "alice%S3cretPw", -c, ls]` loaded, ran Consistent and left the password
// in the record 4 times, with nothing said.
// smbclient reads the password from PASSWD, which no argv shows and a run
// masks, or from an authentication file (-A).
//
//	[smbclient, //h/s, -U, "alice%pw", -c, ls]     noted
//	shell: smbclient -L //h -Ualice%$PW            noted
//	[smbclient, //h/s, -U, alice, -c, ls]          not noted
//	[smbclient, //h/s, -A, /etc/samba/auth, ...]   not noted
func (e *ExecSpec) SambaPasswordInArgv() string {
	if e == nil {
		return ""
	}
	given := false
	if len(e.Command) > 0 && sambaClients[filepath.Base(e.Command[0])] {
		args := e.Command[1:]
		for i, a := range args {
			switch {
			case (a == "-U" || a == "--user") && i+1 < len(args) && strings.Contains(args[i+1], "%"):
				given = true
			case strings.HasPrefix(a, "-U") && len(a) > 2 && strings.Contains(a, "%"),
				strings.HasPrefix(a, "--user=") && strings.Contains(a, "%"),
				a == "--password" || strings.HasPrefix(a, "--password="):
				given = true
			}
		}
	}
	if !given && (e.Shell == "" || !sambaPasswordInShell.MatchString(e.Shell)) {
		return ""
	}
	return "it gives a Samba client the password in its argv (-U user%password, --password), where ps shows it to every user of the host and the record keeps it as the run rendered it; give -U the user alone and the password as envFrom: {PASSWD: password} from a secret: true input (smbclient reads it there, and the run masks it), or an authentication file (-A FILE, mode 600, its lines giving the username and the password)"
}

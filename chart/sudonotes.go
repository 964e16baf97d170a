package chart

import (
	"path/filepath"
	"strings"
)

// SshdTestOutsideMatch is the note for an exec stage that runs `sshd -T`
// (print the configuration sshd runs with) for no connection, or for one
// that leaves out user, host or addr, "" otherwise. sshd applies a Match
// block only to the connection -C names: `sshd -T` alone prints the
// settings outside every Match block, so a `Match User deploy` block with
// PasswordAuthentication yes is not in it, and a check of it said pass,
// Consistent, of an account sshd lets in with a password
// (testdata/wave-sudo/sshd-match). A Match criterion -C leaves out
// (`Match Address 10.9.0.0/16` under `-C user=deploy`) is passed over in
// silence, exit 0, nothing on stderr (OpenSSH 9.2).
//
//	[sshd, -T]                                          noted
//	[sshd, -T, -C, user=deploy]                         noted (no host, no addr)
//	[sshd, -T, -C, "user=${u},host=${h},addr=${a}"]     not noted
//	[sshd, -T, -C, user=root, -C, host=h, -C, addr=a]   not noted (-C adds up)
//	[sshd, -T, -C, "user=${u}"]                         noted (no host, no addr)
//	[sshd, -T, -C, "${spec}"]                           not noted (not known)
//	[sshd, -t]                                          not noted (no output)
func (e *ExecSpec) SshdTestOutsideMatch() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "sshd" {
			return ""
		}
		test, specs := false, []string{}
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			switch {
			case a == "-C" && i+1 < len(argv):
				i++
				specs = append(specs, argv[i])
			case strings.HasPrefix(a, "-C"):
				specs = append(specs, a[2:])
			case len(a) > 1 && a[0] == '-' && a[1] != '-' && onlyLetters(a[1:]) && strings.ContainsRune(a, 'T'):
				test = true
			}
		}
		if !test {
			return ""
		}
		if len(specs) == 0 {
			return "sshd -T without -C prints the settings outside every Match block: a Match User, Group, Address or Host block (PasswordAuthentication yes for one account, PermitRootLogin yes from one network) is not in what it prints, and a check of it passes a server that lets that connection in; ask for each connection that matters, -C user=NAME,host=NAME,addr=ADDRESS (give all three: a Match criterion -C leaves out is passed over in silence)"
		}
		given := map[string]bool{}
		for _, s := range specs {
			for _, kv := range strings.Split(s, ",") {
				k, _, _ := strings.Cut(strings.TrimSpace(kv), "=")
				if k == "" || strings.Contains(k, "$") {
					return "" // a spec not known here: what it names is the run's
				}
				given[strings.ToLower(k)] = true
			}
		}
		var missing []string
		for _, k := range []string{"user", "host", "addr"} {
			if !given[k] {
				missing = append(missing, k+"=")
			}
		}
		if len(missing) == 0 {
			return ""
		}
		return "sshd -T -C without " + strings.Join(missing, " or ") + " passes over in silence every Match block on what it leaves out (Match Address 10.0.0.0/8 under -C user=deploy alone is not applied, exit 0, nothing said), and prints the settings without it; give user=, host= and addr= all three"
	})
}

// VisudoCheckFileSkipsModes is the note for an exec stage that runs
// `visudo -c -f FILE` over the installed policy (/etc/sudoers or a file
// of /etc/sudoers.d, or a path a template gives) without -O and -P, ""
// otherwise. Given -f, even of /etc/sudoers, visudo checks syntax alone,
// no file's owner or mode: it said `parsed OK`, exit 0, over a drop-in
// that sudo refuses to read (`sudo: /etc/sudoers.d/x is world writable`)
// and over one of mode 0644, where `visudo -c` exits 1 (`bad permissions,
// should be mode 0440`), and a check under {0: valid, 1: invalid} said
// valid, Consistent (testdata/wave-sudo/sudoers-valid). `visudo -cf
// candidate` before a file is installed is its use, and is not noted.
//
//	[visudo, -c]                                  not noted
//	[visudo, -c, -f, /etc/sudoers]                noted
//	[visudo, -cf, /etc/sudoers.d/ops]             noted
//	[visudo, -c, -f, "${file}"]                   noted (may be the installed one)
//	[visudo, -c, -O, -P, -f, /etc/sudoers]        not noted
//	[visudo, -cf, /tmp/candidate]                 not noted
func (e *ExecSpec) VisudoCheckFileSkipsModes() string {
	return e.noteOfEachCommand(func(argv []string) string {
		if len(argv) == 0 || filepath.Base(argv[0]) != "visudo" {
			return ""
		}
		check, owner, perms, file, named := false, false, false, "", false
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			switch {
			case a == "--check":
				check = true
			case a == "--owner":
				owner = true
			case a == "--perms":
				perms = true
			case a == "--file" && i+1 < len(argv):
				i++
				file, named = argv[i], true
			case strings.HasPrefix(a, "--file="):
				file, named = strings.TrimPrefix(a, "--file="), true
			case len(a) > 1 && a[0] == '-' && a[1] != '-':
				// a cluster of flags, -f taking the rest or the next word
				for j := 1; j < len(a); j++ {
					switch a[j] {
					case 'c':
						check = true
					case 'O':
						owner = true
					case 'P':
						perms = true
					case 'f':
						named = true
						if j+1 < len(a) {
							file = a[j+1:]
						} else if i+1 < len(argv) {
							i++
							file = argv[i]
						}
						j = len(a)
					}
				}
			case !strings.HasPrefix(a, "-"):
				file, named = a, true // visudo [-c] [[-f] sudoers]
			}
		}
		if !check || !named || owner && perms {
			return ""
		}
		installed := file == "" || strings.Contains(file, "${") || file == "/etc/sudoers" || strings.HasPrefix(file, "/etc/sudoers.d/")
		if !installed {
			return ""
		}
		return "visudo -c -f FILE checks syntax alone, no file's owner or mode, even of /etc/sudoers: it says parsed OK, exit 0, over a drop-in sudo refuses to read (world-writable) or one of mode 0644, where visudo -c exits 1 (bad permissions, should be mode 0440); check the installed policy with visudo -c, or add -O -P (--owner --perms)"
	})
}

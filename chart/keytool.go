package chart

import (
	"path/filepath"
	"regexp"
	"slices"
)

// keytoolPasswordOptions are keytool's options that take a password as
// their next word; each also takes :env NAME or :file PATH, which no
// argv shows.
var keytoolPasswordOptions = []string{"-storepass", "-keypass", "-srcstorepass", "-deststorepass", "-srckeypass", "-destkeypass", "-new"}

// keytoolPasswordInShell is a keytool command of a shell: script given
// one of those options with its password after it.
var keytoolPasswordInShell = regexp.MustCompile(`(^|[\s;&|(/])keytool\s([^|;&\n]*\s)?-(src|dest)?(store|key)pass\s`)

// KeytoolPasswordInArgv is the note for an exec that gives keytool a
// password in its argv ("" otherwise): -storepass PW, -keypass PW and
// their -src/-dest forms, a literal written in the chart or a template's
// value. argv is what ps shows every user of the host, and the record
// keeps it as the run rendered it: a literal (`-storepass, changeit`) is
// no secret the run knows, so nothing masks it (wave-jks). keytool reads
// -storepass:env NAME, which envFrom fills from a secret: true input and
// the run masks.
//
//	[keytool, -list, -v, -keystore, ks.p12, -storepass, changeit]             noted
//	shell: keytool -list -keystore ks.jks -storepass "$P"                     noted
//	[keytool, -list, -keystore, ks.p12, -storepass:env, SP]                   not noted
func (e *ExecSpec) KeytoolPasswordInArgv() string {
	if e == nil {
		return ""
	}
	given := false
	if len(e.Command) > 0 && filepath.Base(e.Command[0]) == "keytool" {
		for _, a := range e.Command[1:] {
			if slices.Contains(keytoolPasswordOptions, a) {
				given = true
			}
		}
	}
	if !given && (e.Shell == "" || !keytoolPasswordInShell.MatchString(e.Shell)) {
		return ""
	}
	return "it gives keytool a password in its argv (-storepass PW, -keypass PW), where ps shows it to every user of the host and the record keeps it as the run rendered it, a password written in the chart unmasked; give it as -storepass:env NAME with envFrom: {NAME: password} from a secret: true input (or -storepass:file PATH): keytool reads it there, and the run masks it"
}

package chart

import (
	"strings"
	"testing"
)

// TestTemplateReadingAnInputNamedAsASecretIsRefused: `[sshpass, -p,
// "${sshPassword}", ssh, HOST, uptime]` over an input sshPassword not
// marked secret loaded and ran, the password in argv (ps) and five times
// in the record. An input whose name says it holds a secret, as envFrom:
// and inheritEnv: judge a variable's name, is refused in a template at
// load; one whose name says nothing, or where it is, loads.
func TestTemplateReadingAnInputNamedAsASecretIsRefused(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, input, item, err string
		decl                   string // the input's declaration, {type: string, required: true} when ""
	}{
		{"a password", "sshPassword", `"${sshPassword}"`, `c.yaml:8:33: stage "up": exec command argument 3: template part ${sshPassword} reads the input "sshPassword", whose name says it holds a secret, and a template puts it in argv, where ps shows it and the record keeps it: mark it secret: true and pass it with envFrom: {SSH_PASSWORD: sshPassword} (the command reads $SSH_PASSWORD; sshpass -e reads $SSHPASS) or stdin: sshPassword`, ""},
		{"a token inside a header", "apiToken", `"Authorization: Bearer ${apiToken}"`, `reads the input "apiToken", whose name says it holds a secret`, ""},
		{"keytool's store password, named as keytool names it", "storepass", `"${storepass}"`, `reads the input "storepass", whose name says it holds a secret`, ""},
		{"where the key is", "keyFile", `"${keyFile}"`, "", ""},
		{"a key, most often its path (ssh -i)", "sshKey", `"${sshKey}"`, "", ""},
		{"a host", "host", `"${host}"`, "", ""},
		// pwck and getent read /etc/passwd: an input named for the file,
		// its default the file's path, was refused as a password
		// (wave-sudo's design question)
		{"the passwd file, by its path", "passwd", `"${passwd}"`, "", "{type: string, default: /etc/passwd}"},
		{"a passwd with no path for a default", "passwd", `"${passwd}"`, `reads the input "passwd", whose name says it holds a secret`, ""},
		{"a password whose default is no path", "sshPassword", `"${sshPassword}"`, `reads the input "sshPassword"`, "{type: string, default: changeme}"},
	} {
		decl := tc.decl
		if decl == "" {
			decl = "{type: string, required: true}"
		}
		src := "version: 1\nrunbook: t\ninputs:\n  " + tc.input + ": " + decl + "\nstages:\n  - id: up\n    exec:\n      command: [sshpass, -p, " + tc.item + ", ssh, web1, uptime]\n"
		_, err := Parse("c.yaml", []byte(src))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v; want it loaded", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v; want %q", tc.name, err, tc.err)
		}
	}
}

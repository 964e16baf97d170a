package chart

import (
	"strings"
	"testing"
)

// TestRadclientOneIsAnAnswerOnlyOverAReply: radclient (FreeRADIUS 3.2)
// exits 1 over an Access-Reject, and over no reply at all: a server
// stopped, a port nobody listens on, a client the server does not know
// (it drops the packet without a word) and a shared secret the server
// does not share (it drops a Status-Server; it rejects an Access-Request
// with a Response Authenticator radclient cannot verify). A check under
// exitCodes: {0: accepted, 1: rejected} said `CRITICAL 127.0.0.1:21899:
// rejected`, Consistent, of a server nobody reached. Its 1 is an answer
// only beside its stdout line `Received Access-Reject Id …`, the reply
// it read and verified.
func TestRadclientOneIsAnAnswerOnlyOverAReply(t *testing.T) {
	t.Parallel()
	code := func(c int) *int { return &c }
	codes := map[int]string{0: "accepted", 1: "rejected"}
	shell := &ExecSpec{Shell: `printf 'User-Name = "%s"\n' "$U" | radclient -S <(printf '%s\n' "$S") -t 3 -r 1 "$SERVER" auth`, ExitCodes: codes}
	command := &ExecSpec{Command: []string{"/usr/bin/radclient", "-f", "/etc/mon/attrs", "-S", "/etc/mon/secret", "127.0.0.1:1812", "auth"}, ExitCodes: codes}
	radtest := &ExecSpec{Command: []string{"timeout", "10", "radtest", "monitor", "pw", "127.0.0.1", "0", "s"}, ExitCodes: codes}
	other := &ExecSpec{Command: []string{"grep", "-q", "x", "/etc/f"}, ExitCodes: codes}
	const (
		sent     = "Sent Access-Request Id 134 from 0.0.0.0:60596 to 127.0.0.1:21899 length 47\n"
		rejected = "Sent Access-Request Id 171 from 0.0.0.0:54513 to 127.0.0.1:21812 length 47\nReceived Access-Reject Id 171 from 127.0.0.1:21812 to 127.0.0.1:54513 length 20\n"
		badAuth  = "(0) Reply verification failed: Received Access-Reject packet from home server 127.0.0.1 port 21812 with invalid Response Authenticator!  (Shared secret is incorrect.)\n"
	)
	for _, tc := range []struct {
		name           string
		e              *ExecSpec
		stdout, stderr string
		want           string
	}{
		{"no reply", shell, sent, "", ""},
		{"a reply it could not verify", shell, sent, badAuth, ""},
		{"a secret file it could not open", command, "", "radclient: Error opening /etc/mon/secret: No such file or directory\n", ""},
		{"an Access-Reject", shell, rejected, "(0) -: Expected Access-Accept got Access-Reject\n", "rejected"},
		{"an Access-Reject, named by path", command, rejected, "", "rejected"},
		{"radtest, no reply", radtest, "Sent Access-Request Id 9 from 0.0.0.0:1 to 127.0.0.1:1812 length 77\n\tUser-Name = \"monitor\"\n", "", ""},
		{"another tool's 1", other, "", "", "rejected"},
	} {
		if got := tc.e.Answer(code(1), []byte(tc.stdout), []byte(tc.stderr)); got != tc.want {
			t.Errorf("%s: Answer(1) = %q, want %q", tc.name, got, tc.want)
		}
	}
	why := shell.NotAnswer(code(1), []byte(sent), nil)
	if want := `radclient's 1 is an answer only beside its line saying it received a reply`; !strings.Contains(why, want) {
		t.Errorf("NotAnswer = %q, want it to hold %q", why, want)
	}
	if got := shell.Answer(code(0), []byte(rejected), nil); got != "accepted" {
		t.Errorf("Answer(0) = %q, want accepted", got)
	}
}

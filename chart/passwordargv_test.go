package chart

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/internal/secret"
)

// TestPasswordOptionInArgvIsNoted: `squidclient -w PW mgr:info` ran
// Consistent with the cache manager's password in the record's argv and
// nothing said (wave-proxy's design question), as did ldapsearch -w,
// mosquitto_sub -P, sshpass -p, mysql -pPW and curl -u user:pw. A plan
// notes each now, a run warns of it once, and the advice names a way
// the client really reads a password; an option that asks for one, or a
// file, is not noted. A note reads whole where plan masks it by form.
func TestPasswordOptionInArgvIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e      ExecSpec
		advice string // in the note; "" for no note
	}{
		{ExecSpec{Command: []string{"squidclient", "-h", "127.0.0.1", "-w", "cachemgrpw", "mgr:info"}}, "/squid-internal-mgr/"},
		{ExecSpec{Command: []string{"/usr/bin/squidclient", "-wcachemgrpw", "mgr:info"}}, "/squid-internal-mgr/"},
		{ExecSpec{Shell: `ldapsearch -x -LLL -D cn=admin,dc=example,dc=org -w adminpw -b dc=example,dc=org | grep dn:`}, "-y"},
		{ExecSpec{Shell: `ldapwhoami -x -w "$PW"`}, "-y"},
		{ExecSpec{Command: []string{"mosquitto_sub", "-u", "mon", "-P", "monpw", "-t", "$SYS/#", "-W", "2"}}, "XDG_CONFIG_HOME"},
		{ExecSpec{Command: []string{"mosquitto_pub", "--pw", "monpw", "-t", "x", "-m", "y"}}, "XDG_CONFIG_HOME"},
		{ExecSpec{Command: []string{"sshpass", "-p", "hunter22", "ssh", "db-1", "uptime"}}, "SSHPASS"},
		{ExecSpec{Shell: `sshpass -phunter22 ssh db-1 uptime`}, "SSHPASS"},
		{ExecSpec{Command: []string{"mysql", "-umon", "-pmonpw", "-e", "select 1"}}, "MYSQL_PWD"},
		{ExecSpec{Command: []string{"mysqladmin", "--password=monpw", "ping"}}, "MYSQL_PWD"},
		{ExecSpec{Command: []string{"curl", "-sf", "-u", "mon:monpw", "http://127.0.0.1:15672/api/overview"}}, "-K -"},
		{ExecSpec{Command: []string{"curl", "-sf", "--user=mon:monpw", "http://x/"}}, "-K -"},

		{ExecSpec{Command: []string{"ldapsearch", "-x", "-y", "/dev/stdin", "-b", "dc=example,dc=org"}}, ""},
		{ExecSpec{Command: []string{"ldapsearch", "-x", "-W"}}, ""},
		{ExecSpec{Command: []string{"mysql", "-p", "-e", "select 1"}}, ""},
		{ExecSpec{Command: []string{"mysql", "--password", "-e", "select 1"}}, ""},
		{ExecSpec{Command: []string{"curl", "-sf", "-u", "mon", "http://x/"}}, ""},
		{ExecSpec{Command: []string{"curl", "-sf", "-w", "%{http_code}", "http://x/"}}, ""},
		{ExecSpec{Command: []string{"squidclient", "mgr:info"}}, ""},
		{ExecSpec{Command: []string{"sshpass", "-e", "ssh", "db-1", "uptime"}}, ""},
		{ExecSpec{Command: []string{"ps", "-w", "-p", "1"}}, ""},
		{ExecSpec{Command: []string{"squidclient", "-w"}}, ""},
	} {
		got := tc.e.PasswordOptionInArgv()
		if (got != "") != (tc.advice != "") {
			t.Errorf("%v %q: noted %q, want a note: %v", tc.e.Command, tc.e.Shell, got, tc.advice != "")
			continue
		}
		if got == "" {
			continue
		}
		if !strings.Contains(got, tc.advice) {
			t.Errorf("%v %q: the note %q names no %q", tc.e.Command, tc.e.Shell, got, tc.advice)
		}
		if !contains(tc.e.RunWarnings(), got) {
			t.Errorf("%v %q: a run does not warn of it", tc.e.Command, tc.e.Shell)
		}
		// plan prints a note masked by form: squidclient's advice once
		// read "mgr:ACTION@*** from no environment variable", its words
		// taken for a password
		if m := secret.ByForm(got); m != got {
			t.Errorf("%v %q: the note is masked in plan's output as %q", tc.e.Command, tc.e.Shell, m)
		}
		for _, pw := range []string{"cachemgrpw", "adminpw", "monpw", "hunter22"} {
			if strings.Contains(got, pw) {
				t.Errorf("%v %q: the note shows the password: %q", tc.e.Command, tc.e.Shell, got)
			}
		}
	}
}

// TestPasswordOptionSeenWhereTheClientReadsIt: `sshpass -e ssh -p 2222
// db-1 uptime`, the very form the note advises, was noted as giving
// sshpass a password: ssh's port read as sshpass's -p; `curl -u :
// --negotiate` (Kerberos, no password) was noted too. And a password
// given in a form the client reads was missed: curl's -u in a group
// (`-fsSu mon:pw`), --proxy-user (-U) and a URL's user:password@;
// ldapsearch's -w in a group (`-xw pw`).
func TestPasswordOptionSeenWhereTheClientReadsIt(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		argv []string
		opt  string // "" for no note
	}{
		{[]string{"sshpass", "-e", "ssh", "-p", "2222", "db-1", "uptime"}, ""},
		{[]string{"sshpass", "-f", "/run/pw", "ssh", "-p2222", "db-1", "uptime"}, ""},
		{[]string{"sshpass", "-p", "hunter22", "ssh", "-p", "2222", "db-1"}, "-p"},
		{[]string{"curl", "-u", ":", "--negotiate", "http://x/"}, ""},
		{[]string{"curl", "-fsSu", "mon:monpw", "http://x/"}, "-u"},
		{[]string{"curl", "-fsSumon:monpw", "http://x/"}, "-u"},
		{[]string{"curl", "-U", "proxy:monpw", "http://x/"}, "-U"},
		{[]string{"curl", "--proxy-user", "proxy:monpw", "http://x/"}, "-U"},
		{[]string{"curl", "-sf", "http://mon:monpw@127.0.0.1:15672/api/overview"}, "user:password@ in the URL"},
		{[]string{"curl", "-sf", "http://127.0.0.1:8000/a@b:c"}, ""},
		{[]string{"curl", "-sf", "http://mon@127.0.0.1/"}, ""},
		{[]string{"ldapsearch", "-xw", "adminpw", "-b", "dc=example,dc=org"}, "-w"},
		{[]string{"ldapsearch", "-xW", "-b", "dc=example,dc=org"}, ""},
		{[]string{"ldapsearch", "-xH", "ldap://x/", "-b", "dc=w"}, ""},
	} {
		if got := passwordOptionIn(tc.argv); got != tc.opt {
			t.Errorf("%q: noted %q, want %q", tc.argv, got, tc.opt)
		}
	}
}

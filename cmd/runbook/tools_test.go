package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Charts an operator would write over real tools' output, each run as a
// real process (a shell stage printing what the tool printed on a Debian
// box), each a confident wrong answer before its fix.

// perRowChart is a chart that runs exec (its YAML after "exec:"), then
// judges each row of its stdout (named as) by rules (a YAML list of
// rules, each "then: bad") under the decider named decider, writing one
// verdict row per row: "bad" (Nagios CRITICAL) or "ok".
func perRowChart(name, decider, exec, as, rules, subject string) string {
	return fmt.Sprintf(`version: 1
runbook: %[1]s
result:
  kind: verdict/%[1]s
  decider: %[2]s
  nagios: {critical: [bad], ok: [ok]}
stages:
  - id: out
    exec:%[3]s
  - id: per
    foreach:
      items: out.stdout
      as: %[4]s
      maxBranches: 10
      stages:
        - id: judge
          name: %[2]s
          decide:
            rules:%[5]s
            default: {branch: ok, label: Nothing to say}
          branches:
            bad: [{id: mb, verdict: {subject: '%[6]s', verdict: '"bad"'}}]
            ok: [{id: mo, verdict: {subject: '%[6]s', verdict: '"ok"'}}]
`, name, decider, exec, as, rules, subject)
}

// TestNagiosOKOverAFullDiskComparedAsText: `df -P -i` gives IUse% as
// text ("100%"), and a threshold written the same way, `{gte: "90%"}`,
// ordered the two by character: "100%" < "90%", so a full filesystem took
// the default, the check said OK and the standing Consistent. Two numbers
// written as text now have no order: the rule could not judge, Not sure,
// UNKNOWN. An expression (`MemAvailable < "2000000 kB"`) is the same.
func TestNagiosOKOverAFullDiskComparedAsText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("inodes", "Headroom", `
      shell: |
        printf 'Filesystem      Inodes  IUsed   IFree IUse%% Mounted on\n'
        printf '/dev/vda      16777216 638104 16139112    4%% /\n'
        printf '/dev/vdb         65536  65536        0  100%% /var\n'
      parse: {as: columns, last: rest}`, "fs", `
              - {when: {"fs.IUse%": {gte: "90%"}}, then: bad, label: Inodes 90% or more used}
              - {when: 'fs["IUse%"] >= "99%"', then: bad, label: Nearly no inodes free}`, `fs["Mounted on"]`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || !strings.HasPrefix(r.stdout, "inodes UNKNOWN") {
		t.Errorf("exit %d; want 3 and UNKNOWN, not OK over /var at 100%%:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, `"100%" and "90%" are numbers written as text`) {
		t.Errorf("want the reason naming the two texts:\n%s", r.stdout)
	}
	r = runCLI(t, dir, "exec", chart)
	if !strings.Contains(r.stdout, "Not sure — decider \"Headroom\" could not evaluate rule 1") || strings.Contains(r.stdout, "Consistent") {
		t.Errorf("want Not sure over the rule that could not order the texts:\n%s", r.stdout)
	}
}

// TestNagiosOKOverTheFullestDiskSortedAsText: a chart that takes the
// fullest file system as last(sortBy(fs, .Capacity)) over df -P's text
// capacities sorted "100%" before "90%": it judged / at 90% the fullest,
// under 95%, OK, while /var was full. sortBy now orders numbers written
// as text as `<` does, an error that says how to sort them: the run
// cannot judge, UNKNOWN.
func TestNagiosOKOverTheFullestDiskSortedAsText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: fullest
result:
  kind: verdict/fullest
  decider: Fullest
  nagios: {critical: [full], ok: [room]}
stages:
  - id: df
    exec:
      shell: |
        printf 'Filesystem 1024-blocks Used Available Capacity Mounted on\n'
        printf '/dev/vda 1000 900 100 90%% /\n'
        printf '/dev/vdb 1000 1000 0 100%% /var\n'
        printf '/dev/vdc 1000 70 930 7%% /srv\n'
      parse: {as: columns, last: rest}
  - id: pick
    set: {fullest: 'last(sortBy(df.stdout, .Capacity))'}
  - id: judge
    name: Fullest
    decide:
      rules:
        - {when: 'int(trimSuffix(fullest.Capacity, "%")) >= 95', then: full, label: The fullest disk is 95% used or more}
      default: {branch: room, label: Every disk has room}
    branches:
      full: [{id: mf, verdict: {subject: 'fullest["Mounted on"]', verdict: '"full"'}}]
      room: [{id: mr, verdict: {subject: 'fullest["Mounted on"]', verdict: '"room"'}}]
`)
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || strings.HasPrefix(r.stdout, "fullest OK") {
		t.Errorf("exit %d; want 3, UNKNOWN, not OK over / at 90%% while /var is full:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if out := r.stdout + r.stderr; !strings.Contains(out, "are numbers written as text") {
		t.Errorf("want the reason, numbers written as text:\n%s", out)
	}
}

// TestNamedColumnsWithTheHeaderUnsaidAreRefused: columns named with
// names: [...] read past the output's first line as its header unless
// the chart said header: false. A chart listing certificates, one
// "name notAfter" line each with no header, lost its first certificate:
// four rows of five, every one fine, and nothing said one was missing.
// The chart must now say which it means, at load, where it is written.
func TestNamedColumnsWithTheHeaderUnsaidAreRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("certs", "Expiry", `
      shell: |
        printf 'a.pem Dec 31 09:37:37 2020 GMT\n'
        printf 'b.pem Jan  1 00:00:00 2099 GMT\n'
      parse: {as: columns, names: [name, notAfter], last: rest}`, "c", `
              - {when: 'date(c.notAfter, "Jan _2 15:04:05 2006 MST") < now()', then: bad, label: Expired}`, `c.name`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code == 0 || !strings.Contains(r.stderr, "c.yaml:") || !strings.Contains(r.stderr, "say whether the output's first line is a header") {
		t.Errorf("exit %d; want the chart refused at load, naming where, not a.pem dropped:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if err := os.WriteFile(chart, []byte(strings.Replace(string(readFile(t, chart)), "names: [name, notAfter]", "names: [name, notAfter], header: false", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 2 || !strings.Contains(r.stdout, "a.pem: bad") {
		t.Errorf("exit %d; want a.pem read and judged expired, CRITICAL:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestPredicateTypoIsNotKnown: the sixty-seconds example with one typo,
// filter(sardev.stdout ?? [], .tme == "Average:"), kept no NIC (expr reads
// a member a map lacks as null), its table said "sar gave no NICs" and
// its answer check stood Known. A member no item of the list has, while
// they have one a typo away, is now the expression's error: the run
// fails at the stage, naming the member and the near one.
func TestPredicateTypoIsNotKnown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile("../../examples/sixty-seconds/chart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	typo := strings.Replace(string(src), `nics: 'filter(sardev.stdout ?? [], .time == "Average:" &&`, `nics: 'filter(sardev.stdout ?? [], .tme == "Average:" &&`, 1)
	if typo == string(src) {
		t.Fatal("the example no longer filters its NICs as this test expects")
	}
	chart := writeChart(t, dir, "chart.yaml", typo)
	fake, _ := filepath.Abs("testdata/examples/bin")
	r := runCLIEnv(t, dir, []string{"PATH=" + fake + ":" + os.Getenv("PATH")}, "exec", chart)
	if strings.Contains(r.stdout, "Known") || !strings.Contains(r.stderr, `no item of the list has a member "tme"; did you mean "time"?`) {
		t.Errorf("exit %d; want the typo said, never Known:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestRepeatedHeaderIsNoSubject: two ps runs in one shell stage print the
// header twice; the second header was a row, a process "PID COMMAND"
// judged "ok" by the zombie rule, under Consistent. It is passed over.
func TestRepeatedHeaderIsNoSubject(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("zombies", "State",
		` {shell: "ps -o pid,stat,comm -p 1; ps -o pid,stat,comm -p $$", parse: {as: columns, last: rest}}`, "p", `
              - {when: {p.STAT: {startsWith: "Z"}}, then: bad, label: A zombie}`, `string(p.PID) + " " + p.COMMAND`))
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "PID COMMAND") || strings.Count(r.stdout, "| ok |") != 2 {
		t.Errorf("want two processes judged, the repeated header none:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestShiftedDfRowIsNotSure: df -P on a box with a CIFS share
// "//nas/My Share" (real output, a tmpfs mounted under that name). Under
// last: rest the share's row was keyed one column off — Available held
// the Used column, "Mounted on" was "100% /tmp/adv/mnt/x" — so a full
// share read as 1024 KiB free: OK, Consistent. Its row is now a parse
// problem: Not sure, UNKNOWN.
func TestShiftedDfRowIsNotSure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("space", "Space", `
      shell: |
        printf 'Filesystem              1024-blocks     Used Available Capacity Mounted on\n'
        printf '/dev/vda                  264212084 49411940  46089324      52%% /\n'
        printf '//nas/My Share                 1024     1024         0     100%% /tmp/adv/mnt/x\n'
      parse: {as: columns, last: rest}`, "fs", `
              - {when: {fs.Available: {lt: 100}}, then: bad, label: Under 100 KiB free}`, `fs["Mounted on"]`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 3 || strings.Contains(r.stdout, "100% /tmp/adv/mnt/x: ok") {
		t.Errorf("exit %d; want 3, UNKNOWN, and no row for the shifted share:\n%s", r.code, r.stdout)
	}
	if !strings.Contains(r.stdout, `its last column holds "100% /tmp/adv/mnt/x", which begins left of the header's "Mounted on"`) {
		t.Errorf("want the shifted row named:\n%s", r.stdout)
	}
}

// TestStderrOnlyExitZeroIsNoEmptyAnswer: a collector that cannot read
// what it collects says so on stderr and exits 0 (journalctl without read
// access to the journal, a CLI whose backend is down). parse: jsonl made
// an empty list of its blank stdout, the rule "any error entries" did not
// match, and the run stood Consistent — "no errors" read from a command
// that read nothing. Its stage is now a not-checked ledger item
// (stderr-only): Not sure, UNKNOWN. A command that printed its rows
// (with warnings on stderr), and a stage with no parse: (an action that
// prints progress on stderr), are not flagged; an explicit parse: text is
// (postconf -h of an unknown parameter read as a setting left unset).
func TestStderrOnlyExitZeroIsNoEmptyAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const said = `stage "out" did not check its output (it printed nothing on stdout and wrote on stderr though it exited 0, so what parse: jsonl made of the empty stdout may be a failure the command did not report, not an answer of none; stderr's first line: "Failed to open journal: Permission denied")`
	for _, tc := range []struct {
		name, shell, parse string
		flagged            bool
	}{
		{"stderr only", `echo 'Failed to open journal: Permission denied' >&2`, "jsonl", true},
		{"rows and a warning", `echo '{"MESSAGE": "disk error"}'; echo 'Hint: some entries are not shown' >&2`, "jsonl", false},
		{"nothing at all", `true`, "jsonl", false},
		{"text", `echo 'Restarting…' >&2`, "text", false},
		{"parse text given", `echo 'postconf: warning: smtpd_tls_auth_olny: unknown parameter' >&2`, "text", true},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", perRowChart("journal", "Entry",
			fmt.Sprintf(" {shell: %q, parse: %s}", tc.shell, tc.parse), "e", `
              - {when: 'true', then: bad, label: An error entry}`, `e.MESSAGE`))
		want := said
		if tc.name == "parse text given" {
			// postconf -h of a parameter it does not know: nothing on
			// stdout, a warning on stderr, exit 0; parse: text said what
			// the chart reads is that stdout, and its "" read as unset.
			chart = writeChart(t, dir, "postconf.yaml", fmt.Sprintf(`version: 1
runbook: journal
result: {kind: verdict/auth, decider: Auth}
stages:
  - id: out
    exec: {shell: %q, parse: text}
  - id: auth
    name: Auth
    decide:
      rules:
        - {when: 'trim(out.stdout) == "no"', then: bad, label: AUTH before STARTTLS}
      default: {branch: ok, label: AUTH only after STARTTLS}
    branches:
      bad: [{id: b, verdict: {subject: '"smtpd"', verdict: '"bad"'}}]
      ok: [{id: o, verdict: {subject: '"smtpd"', verdict: '"ok"'}}]
`, tc.shell))
			want = `stage "out" did not check its output (it printed nothing on stdout and wrote on stderr though it exited 0, so what parse: text made of the empty stdout may be a failure the command did not report, not an answer of none; stderr's first line: "postconf: warning: smtpd_tls_auth_olny: unknown parameter")`
		} else if tc.parse == "text" {
			chart = writeChart(t, dir, "text.yaml", fmt.Sprintf(`version: 1
runbook: restart
stages:
  - id: out
    exec: {shell: %q}
`, tc.shell))
		}
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if got := strings.Contains(r.stdout, want); got != tc.flagged {
			t.Errorf("%s: flagged %v, want %v:\n%s", tc.name, got, tc.flagged, r.stdout)
		}
		if tc.flagged && (r.code != 3 || !strings.HasPrefix(r.stdout, "journal UNKNOWN")) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

// TestNotUTF8OutputIsNotSure: a mount named in Latin-1 (/srv/caf\xe9,
// /srv/caf\xe8), a lone 0xff, a sequence cut at the end. Each bad byte
// reached the scope as U+FFFD with nothing said: the two mounts read as one
// name "/srv/caf\uFFFD", a rule over /srv/cafè could not match either,
// and the run stood Consistent, Nagios OK, over names the command never
// printed. The text is now a not-checked ledger item (not-utf8) quoting the
// first bad byte's line as it was: Not sure, UNKNOWN. UTF-8 (é, ✓) is not
// flagged; a read: file and stderr take the same road.
func TestNotUTF8OutputIsNotSure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	latin1 := filepath.Join(dir, "latin1.txt")
	if err := os.WriteFile(latin1, []byte("name=caf\xe9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, exec, said string
	}{
		{"latin-1 mounts", `
      shell: |
        printf 'Filesystem 1024-blocks Used Available Capacity Mounted on\n'
        printf '/dev/vda 100 99 1 99%% /srv/caf\351\n'
        printf '/dev/vdb 100 1 99 1%% /srv/caf\350\n'
      parse: {as: columns, last: rest}`, `its stdout (2 bytes of it are not UTF-8 and reached the scope as U+FFFD, so a value made of it is not what was read, and two different texts may read as one; the first is byte 88 of it (0xe9), on line 2: "/dev/vda 100 99 1 99% /srv/caf\xe9"; to read it, have it converted to UTF-8 where it is made (iconv`},
		{"lone 0xff", ` {shell: "printf 'name=x\\n\\377\\n'", parse: lines}`, `its stdout (1 byte of it is not UTF-8 and reached the scope as U+FFFD, so a value made of it is not what was read, and two different texts may read as one; the first is byte 7 of it (0xff), on line 2: "\xff"; to read it, have it converted to UTF-8 where it is made (iconv`},
		{"cut at the end", ` {shell: "printf 'caf\\303'", parse: lines}`, `its stdout (1 byte of it is not UTF-8 and reached the scope as U+FFFD, so a value made of it is not what was read, and two different texts may read as one; the first is byte 3 of it (0xc3), on line 1: "caf\xc3"; to read it, have it converted to UTF-8 where it is made (iconv`},
		{"stderr", ` {shell: "echo ok; printf 'Avertissement: caf\\351\\n' >&2", parse: lines}`, `its stderr (1 byte of it`},
		{"utf-8", ` {shell: "printf 'caf\\303\\251 \\342\\234\\223\\n'", parse: lines}`, ""},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", perRowChart("mounts", "Mount", tc.exec, "m", `
              - {when: 'string(m) contains "caf\u00e8"', then: bad, label: The mount to watch}`, `string(m)`))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		if tc.said == "" {
			if r.code != 0 || strings.Contains(r.stdout, "not UTF-8") {
				t.Errorf("%s: exit %d; want 0, OK, nothing flagged:\n%s", tc.name, r.code, r.stdout)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "mounts UNKNOWN") || !strings.Contains(r.stdout, "not UTF-8") {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, and the bytes said:\n%s\nwant: %s", tc.name, r.code, r.stdout, tc.said)
		}
		r = runCLI(t, dir, "exec", chart)
		if !strings.Contains(r.stdout, `Not sure — stage "out" did not check `+tc.said) {
			t.Errorf("%s: want Not sure, naming the bytes:\n%s\nwant: %s", tc.name, r.stdout, tc.said)
		}
	}
	chart := writeChart(t, dir, "read.yaml", fmt.Sprintf(`version: 1
runbook: file
stages:
  - id: f
    read: {path: '%q', parse: kv}
`, latin1))
	r := runCLI(t, dir, "exec", chart)
	if want := `Not sure — stage "f" did not check the file ` + latin1 + ` (1 byte of it is not UTF-8`; !strings.Contains(r.stdout, want) {
		t.Errorf("read: want %s:\n%s", want, r.stdout)
	}
}

// TestCRLFLinesAreReadAsLines: a tool that ends its lines as Windows does
// (a network device's CLI over ssh, curl -sI's headers) under parse: lines
// gave "db failed\r", which the rule `endsWith " failed"` did not match:
// the failed service read "ok", Nagios OK, Consistent. Every other mode
// already read a line without its "\r\n"; lines does too.
func TestCRLFLinesAreReadAsLines(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", perRowChart("services", "Service",
		` {shell: "printf 'web ok\\r\\ndb failed\\r\\n'", parse: lines}`, "l", `
              - {when: 'l endsWith " failed"', then: bad, label: A failed service}`, `l`))
	r := runCLI(t, dir, "exec", chart, "--format", "nagios")
	if r.code != 2 || !strings.HasPrefix(r.stdout, "services CRITICAL - 1 bad (db failed), 1 ok") {
		t.Errorf("exit %d; want 2, CRITICAL over db:\n%s", r.code, r.stdout)
	}
}

// TestGlobOfLatin1NamesIsNotSure: a read: glob over a folder holding
// caf\xe9 and caf\xe8 gave two files whose path was one string,
// "…/caf\uFFFD", with nothing said: Consistent over names the file system
// never gave. A name that is not UTF-8 is a not-checked ledger item, as
// the content is.
func TestGlobOfLatin1NamesIsNotSure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	share := filepath.Join(dir, "share")
	if err := os.Mkdir(share, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"caf\xe9", "caf\xe8", "résumé"} {
		if err := os.WriteFile(filepath.Join(share, name), []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	chart := writeChart(t, dir, "glob.yaml", `version: 1
runbook: share
stages:
  - id: f
    read: {glob: '"share/*"', parse: lines}
`)
	r := runCLI(t, dir, "exec", chart)
	if want := `Not sure — stage "f" did not check the name of a file it read (1 byte of it is not UTF-8 and reached the scope as U+FFFD, so a value made of it is not what was read, and two different texts may read as one; the first is byte `; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, `"share/caf\xe8"; to read it, rename the file in UTF-8 (convmv`) {
		t.Errorf("want the name said, not Consistent:\n%s%s", r.stdout, r.stderr)
	}
}

// TestInputNotUTF8IsRefused: `--input name=caf\xe9` (a name pasted from a
// Latin-1 terminal) was taken, and the record's inputs and every value
// made of it held "caf\uFFFD": a chart comparing it with a file name
// compared a name nobody gave. It is refused, exit 2, saying which byte.
func TestInputNotUTF8IsRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "in.yaml", `version: 1
runbook: in
inputs:
  name: {type: string}
stages:
  - id: s
    set: {n: name}
`)
	r := runCLI(t, dir, "exec", chart, "--input", "name=caf\xe9")
	if r.code != 2 || !strings.Contains(r.stderr, `input "name": is not a string: it holds a text that is not UTF-8: byte 3 is 0xe9`) {
		t.Errorf("exit %d; want 2 and the byte named:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, dir, "exec", chart, "--input", "name=café"); r.code != 0 {
		t.Errorf("UTF-8: exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestNotUTF8ItemTellsNoSecret: a read: file whose line holds a secret
// and a Latin-1 byte. The item quotes the line masked, and counts the
// bad byte's offset in the masked text: the raw offset (23) told the
// secret's length (14) to anyone who knows the mask (***). (The line's
// key is no secret's name: a token= line's value is masked whole by its
// form, secret.EnvAssignments, whatever the inputs.)
func TestNotUTF8ItemTellsNoSecret(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "sec.txt"), []byte("motd=hunter2hunter2 caf\xe9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "sec.yaml", `version: 1
runbook: sec
inputs:
  token: {type: string, secret: true}
stages:
  - id: f
    read: {path: '"sec.txt"', parse: kv}
`)
	r := runCLI(t, dir, "exec", chart, "--input", "token=hunter2hunter2", "--format", "json")
	if strings.Contains(r.stdout, "hunter2") || !strings.Contains(r.stdout, `the first is byte 12 of it (0xe9), on line 1: \"motd=*** caf\\xe9\"`) {
		t.Errorf("want the line masked and the masked offset:\n%s%s", r.stdout, r.stderr)
	}
}

// TestVerdictWordMeansWhatRoutedItsRow: the 60-second checklist written
// as one decider a subject ("Kernel", "CPU"), each with an ok and a bad
// branch, result.decider naming the first. The cpu row's "bad" was put
// there by CPU's rule "CPU over 90% busy", yet the legend said "bad — OOM
// in the kernel log": the words' meanings were read from the result
// decider alone. A decider that is the nearest choice above a verdict
// stage gives its labels to the words too.
func TestVerdictWordMeansWhatRoutedItsRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: sixty
result: {kind: verdict/sixty, decider: Kernel}
stages:
  - id: facts
    set: {oom: 'false', busy: 97}
  - id: kernel
    name: Kernel
    decide:
      rules:
        - {when: 'oom', then: bad, label: OOM in the kernel log}
      default: {branch: ok, label: No OOM in the kernel log}
    branches:
      bad: [{id: kb, verdict: {subject: '"kernel"', verdict: '"bad"'}}]
      ok: [{id: ko, verdict: {subject: '"kernel"', verdict: '"ok"'}}]
  - id: cpu
    name: CPU
    decide:
      rules:
        - {when: 'busy > 90', then: bad, label: CPU over 90% busy}
      default: {branch: ok, label: CPU under 90% busy}
    branches:
      bad: [{id: cb, verdict: {subject: '"cpu"', verdict: '"bad"'}}]
      ok: [{id: co, verdict: {subject: '"cpu"', verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	for _, want := range []string{"bad — OOM in the kernel log; CPU over 90% busy", "ok — No OOM in the kernel log; CPU under 90% busy"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("want %q in the legend:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
}

// TestVerdictWordsListNoBranchThatHoldsNoRow: a decider that routes a
// file to "unreadable" (a verdict stage) or to "each" (a foreach whose
// rows the Expiry decider words) listed "each — every certificate read"
// among what the verdict words mean, though no row can have that word
// (wave-pki, testdata/wave-pki/expiry.yaml). Only the branches that hold a
// verdict stage it is the nearest choice above are its words.
func TestVerdictWordsListNoBranchThatHoldsNoRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: certs
result: {kind: verdict/cert, decider: Expiry}
stages:
  - id: facts
    set: {found: 2, left: '[40, 3]'}
  - id: readable
    name: Readable
    decide:
      rules:
        - {when: found == 0, then: unreadable, label: the file holds no certificate}
      default: {branch: each, label: every certificate read}
    branches:
      unreadable: [{id: u, verdict: {subject: '"f"', verdict: '"unreadable"'}}]
      each:
        - id: per
          foreach:
            items: left
            as: days
            maxBranches: 10
            stages:
              - id: judge
                name: Expiry
                decide:
                  rules:
                    - {when: days < 7, then: critical, label: fewer than 7 days left}
                  default: {branch: ok, label: at least 7 days left}
                branches:
                  critical: [{id: c, verdict: {subject: string(days), verdict: '"critical"'}}]
                  ok: [{id: o, verdict: {subject: string(days), verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "each —") {
		t.Errorf("the legend lists the branch each, which holds no row:\n%s", r.stdout)
	}
	for _, want := range []string{"critical — fewer than 7 days left", "ok — at least 7 days left"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("want %q in the legend:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
}

// TestSetTypoIsNotKnown: a set: that read `svc.ActivState` from systemctl
// show's key=value output (which has ActiveState) wrote null; the rule
// `state == "failed"` was then a plain no, and a failed unit stood "ok",
// Known. The set: stage now fails naming the member and the near one, and
// the answer is not Known.
func TestSetTypoIsNotKnown(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: unit
result:
  kind: verdict/unit
  decider: Unit
  nagios: {critical: [bad], ok: [ok]}
stages:
  - id: show
    exec:
      shell: printf 'Id=nginx.service\nActiveState=failed\nSubState=failed\n'
      parse: kv
      into: svc
  - id: pick
    set: {state: svc.stdout.ActivState}
  - id: judge
    name: Unit
    decide:
      rules:
        - {when: 'state == "failed"', then: bad, label: The unit failed}
      default: {branch: ok, label: The unit is not failed}
    branches:
      bad: [{id: mb, verdict: {subject: '"nginx"', verdict: '"bad"'}}]
      ok: [{id: mo, verdict: {subject: '"nginx"', verdict: '"ok"'}}]
`)
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "Known") || strings.Contains(r.stdout, "| ok") ||
		!strings.Contains(r.stdout+r.stderr, `has no member "ActivState"; did you mean "ActiveState"?`) {
		t.Errorf("exit %d; want the typo said, never Known:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestToolNotFoundIsSaidAsNotFound: a tool that is not installed (mpstat
// on a box without sysstat) never started, yet its empty output was parsed
// and filed as a parse problem, so the standing line led with "line 1: no
// JSON value: the text is blank" and the cause, "could not be started:
// not found", came after. The script row says it alone now.
func TestToolNotFoundIsSaidAsNotFound(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `
version: 1
runbook: cpu
stages:
  - id: mpstat
    exec: {command: [runbook-no-such-tool-mpstat, -o, JSON], parse: json}
  - id: lines
    exec: {command: [runbook-no-such-tool-sar], parse: lines}
`)
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout+r.stderr, "the text is blank") || strings.Contains(r.stdout+r.stderr, "could not read") ||
		!strings.Contains(r.stdout, `Not sure — the run recorded no outcome for script "mpstat" (outcome unknown: could not be started: runbook-no-such-tool-mpstat not found)`) {
		t.Errorf("exit %d; want the tool said as not found, no parse problem over output it never wrote:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestFailedScriptsBlankOutputIsNoParseProblem: `curl -sf URL` over a
// server answering 500 exits 22 and prints nothing, and under parse: json
// the run said its output could not be read ("line 1: no JSON value: the
// text is blank"), a coverage-gap beside the script-failed its row
// already said, and warned of it on stderr. A failure's blank output is
// none of its answer: the script row says it alone. A failure that
// printed something unreadable is still said.
func TestFailedScriptsBlankOutputIsNoParseProblem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, shell string
		problem     bool
	}{
		{"blank", "exit 22", false},
		{"an error page", "echo '<html>500</html>'; exit 22", true},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", `
version: 1
runbook: api
stages:
  - id: get
    exec: {shell: "`+tc.shell+`", parse: json}
`)
		r := runCLI(t, dir, "exec", chart, "--format", "json")
		said := strings.Contains(r.stdout+r.stderr, "could not read")
		if said != tc.problem || !strings.Contains(r.stdout, "script-failed") {
			t.Errorf("%s: parse problem said %v, want %v; and script-failed:\n%s\n%s", tc.name, said, tc.problem, r.stdout, r.stderr)
		}
		if !tc.problem && strings.Contains(r.stdout, "coverage-gap") {
			t.Errorf("%s: a coverage-gap over a failure's blank output:\n%s", tc.name, r.stdout)
		}
	}
}

// TestMaxOutputLetsALargeListingBeRead: a command printing past 1 MiB was
// always withheld, its stage Not sure, with no key to raise the cap:
// `kubectl get pods -A -o json` on a cluster of a few hundred pods. exec's
// maxOutput: reads it; without it the stage says the cap it passed.
func TestMaxOutputLetsALargeListingBeRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := `
version: 1
runbook: big
result:
  kind: verdict/listing
  decider: Size
stages:
  - id: list
    exec:
      shell: printf '"'; head -c 1500000 /dev/zero | tr '\0' a; printf '"'
      parse: json
      maxOutput: 4MiB
  - id: judge
    name: Size
    decide:
      rules:
        - {when: 'len(list.stdout) == 1500000', then: whole, label: All of it was read}
      default: {branch: short, label: Not all of it was read}
    branches:
      whole: [{id: w, verdict: {subject: '"listing"', verdict: '"ok"'}}]
      short: [{id: s, verdict: {subject: '"listing"', verdict: '"short"'}}]
`
	r := runCLI(t, dir, "exec", writeChart(t, dir, "c.yaml", src))
	if r.code != 0 || !strings.Contains(r.stdout, "| listing | ok |") || !strings.Contains(r.stdout, "\nConsistent with") {
		t.Errorf("exit %d; want the 1.5 MB listing read whole under maxOutput: 4MiB:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "exec", writeChart(t, dir, "d.yaml", strings.Replace(src, "maxOutput: 4MiB", "maxOutput: 1MiB", 1)))
	if !strings.Contains(r.stdout, "Not sure") || !strings.Contains(r.stdout, "1048576") {
		t.Errorf("exit %d; want the listing withheld past the 1 MiB cap, saying the cap:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestMaxSizeLetsALargeLogBeRead: a read: file past 1 MiB (a busy day's
// syslog) was always withheld, with no key to raise the cap; read's
// maxSize: reads it whole.
func TestMaxSizeLetsALargeLogBeRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := strings.Repeat("Dec  6 10:15:22 host app[42]: GET /health 200\n", 40000) + "Dec  6 10:16:00 host app[42]: ERROR disk failing\n"
	if err := os.WriteFile(filepath.Join(dir, "syslog"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `
version: 1
runbook: log
result:
  kind: verdict/log
  decider: Errors
stages:
  - id: log
    read: {path: '"syslog"', parse: lines, maxSize: 8MiB}
  - id: judge
    name: Errors
    decide:
      rules:
        - {when: 'any(log.content ?? [], # contains "ERROR")', then: bad, label: An error was logged}
      default: {branch: ok, label: No error was logged}
    branches:
      bad: [{id: b, verdict: {subject: '"syslog"', verdict: '"bad"'}}]
      ok: [{id: o, verdict: {subject: '"syslog"', verdict: '"ok"'}}]
`
	r := runCLI(t, dir, "exec", writeChart(t, dir, "c.yaml", src))
	if r.code != 0 || !strings.Contains(r.stdout, "| syslog | bad |") || !strings.Contains(r.stdout, "\nConsistent with") {
		t.Errorf("exit %d; want the 1.8 MB log read whole under maxSize: 8MiB, its last line's error found:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, dir, "exec", writeChart(t, dir, "d.yaml", strings.Replace(src, ", maxSize: 8MiB", "", 1)))
	if !strings.Contains(r.stdout, "Not sure") || !strings.Contains(r.stdout, "1048576") {
		t.Errorf("exit %d; want the log withheld past the default cap, saying it:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestForeachItemScriptShowsItsStderr: a foreach item's command that
// failed, or answered with an exit code alone, listed under Scripts with
// no word of what it wrote on stderr, since its value is not in the final
// state: `openssl x509 -checkend` over a file that is not there said only
// "per~1/check: answered expiring (exit 1)", and openssl's "Could not open
// file" was in the record alone (wave-pki). The row's own stderr tail is
// shown now, as a top-level stage's is.
func TestForeachItemScriptShowsItsStderr(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: checkend
result: {kind: verdict/cert}
stages:
  - id: per
    foreach:
      items: '["a.pem", "b.pem"]'
      as: cert
      maxBranches: 10
      stages:
        - id: check
          exec:
            shell: 'if [ "$C" = b.pem ]; then echo "Could not open file $C" >&2; exit 1; fi; echo "Certificate will not expire"'
            envFrom: {C: cert}
            exitCodes: {0: valid, 1: expiring}
        - {id: v, verdict: {subject: cert, verdict: check.status}}
`)
	r := runCLI(t, dir, "exec", chart)
	want := "  per~1/check: answered expiring (exit 1)\n    | Could not open file b.pem\n"
	if !strings.Contains(r.stdout, want) {
		t.Errorf("want %q under Scripts:\n%s\n%s", want, r.stdout, r.stderr)
	}
}

// TestMultiLineExpressionErrorSaysItsCause: a set: written as a YAML
// block failed, and the text output said `run failed at entries: set
// certs: reduce(list.stdout, #acc + ( (its first line; --format json and
// the --record file hold it whole)`: the message quoted the expression as
// written, so its first line ended inside it and the cause was never shown
// (wave-pki's keystore chart, + over two lists). The expression is quoted
// on one line now, and the cause follows it, in a chart's words (rules
// TestListsAddedSayConcat).
func TestMultiLineExpressionErrorSaysItsCause(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: entries
stages:
  - id: list
    set: {lines: '["Alias name: a", "Valid from: x until: y"]'}
  - id: entries
    set:
      certs: |-
        reduce(lines, #acc + (
          # startsWith "Alias name: " ? [#] : []
        ), [])
`)
	r := runCLI(t, dir, "exec", chart)
	want := `run failed at entries: set certs: reduce(lines, #acc + ( # startsWith "Alias name: " ? [#] : [] ), []): + adds numbers and joins texts, and a side of it is a list: join two lists with concat(a, b)`
	if !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "its first line") {
		t.Errorf("want %q on stderr:\n%s", want, r.stderr)
	}
}

// TestEmptyAnswerOverAFailedScriptIsNotNothingToReport: a chart whose
// rows are findings (result.empty: answer) ran grep with a pattern that
// began with "-----", which grep read as an option and exited 2: the
// table's sentence said "which the chart declares its answer (result.empty:
// answer): nothing to report" above a Not sure standing (wave-pki's
// keys-found chart). None found is the chart's answer only where every
// script it rests on answered.
func TestEmptyAnswerOverAFailedScriptIsNotNothingToReport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chart := writeChart(t, dir, "c.yaml", `version: 1
runbook: keys
result: {kind: verdict/key, empty: answer}
stages:
  - id: found
    exec:
      shell: 'echo "grep: unrecognized option" >&2; exit 2'
      exitCodes: {0: found, 1: none}
      parse: lines
  - id: per
    foreach:
      items: found.stdout
      as: k
      maxBranches: 10
      stages:
        - {id: v, verdict: {subject: k, verdict: '"private-key"'}}
`)
	r := runCLI(t, dir, "exec", chart)
	if strings.Contains(r.stdout, "nothing to report") || !strings.Contains(r.stdout, "Not sure") {
		t.Errorf("the table says none found is the answer over a script that failed:\n%s", r.stdout)
	}
}

// TestStdoutReadOfActionWithStderrOnlyIsNoAnswer: nginx -V writes its
// version and configure arguments (the modules built in) on stderr alone
// and prints nothing on stdout. A chart with no parse: looked for a
// forbidden module in `v.stdout`, read "", and said clean, Nagios OK,
// Consistent, over an nginx built with http_dav_module. A stage with no
// parse: whose stdout an expression reads takes it as the answer, as an
// explicit parse: text does: its blank stdout beside stderr is the
// stderr-only item, Not sure, UNKNOWN. A stage no expression reads the
// stdout of (an action printing progress on stderr), or one whose
// stderr the chart reads, is not judged so.
func TestStdoutReadOfActionWithStderrOnlyIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const nginxV = `echo 'nginx version: nginx/1.22.1' >&2; echo 'configure arguments: --with-http_dav_module --with-http_ssl_module' >&2`
	for _, tc := range []struct {
		name, read string
		flagged    bool
		code       int
	}{
		{"stdout read", `v.stdout contains "http_dav_module"`, true, 3},
		{"stdout read by index", `v["stdout"] contains "http_dav_module"`, true, 3},
		{"stderr read", `v.stderr contains "http_dav_module"`, false, 2},
		{"exit code read", `v.exitCode != 0`, false, 0},
	} {
		chart := writeChart(t, dir, strings.ReplaceAll(tc.name, " ", "-")+".yaml", fmt.Sprintf(`version: 1
runbook: nginx-modules
result: {kind: verdict/modules, decider: Modules, nagios: {ok: clean, critical: forbidden}}
stages:
  - id: v
    exec: {shell: %q}
  - id: judge
    name: Modules
    decide:
      rules:
        - {when: '%s', then: forbidden, label: WebDAV built in}
      default: {branch: clean, label: no forbidden module}
    branches:
      forbidden: [{id: b, verdict: {subject: '"nginx"', verdict: '"forbidden"'}}]
      clean: [{id: o, verdict: {subject: '"nginx"', verdict: '"clean"'}}]
`, nginxV, tc.read))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		got := strings.Contains(r.stdout, `stage "v" did not check its output (it printed nothing on stdout and wrote on stderr though it exited 0, and the chart reads its stdout (it has no parse:)`)
		if got != tc.flagged || r.code != tc.code {
			t.Errorf("%s: flagged %v exit %d, want %v exit %d:\n%s", tc.name, got, r.code, tc.flagged, tc.code, r.stdout)
		}
	}
	// A stage whose exit code is its declared answer is not asked: nginx
	// -t under {0: valid, 1: invalid} with its stdout in a column (empty:
	// nginx answers on stderr) stood Not sure on every run.
	chart := writeChart(t, dir, "nginx-t.yaml", `version: 1
runbook: nginx-config
result: {kind: verdict/config, nagios: {ok: [valid], critical: [invalid]}}
stages:
  - id: t
    exec:
      shell: "echo 'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok' >&2; echo 'nginx: configuration file /etc/nginx/nginx.conf test is successful' >&2"
      exitCodes: {0: valid, 1: invalid}
  - {id: v, verdict: {subject: '"nginx"', verdict: t.status, said: t.stdout}}
`)
	if r := runCLI(t, dir, "exec", chart, "--format", "nagios"); r.code != 0 || !strings.HasPrefix(r.stdout, "nginx-config OK - 1 valid") {
		t.Errorf("a declared answer with its stdout in a column: exit %d\n%s", r.code, r.stdout)
	}
}

// TestRefusalMergedIntoStdoutIsNoAnswer: `nginx -t … 2>&1` with
// exitCodes {0: valid, 1: invalid}, run as a user who may not read the
// config, printed `open() "…/nginx.conf" failed (13: Permission denied)`
// on stdout (the script sent stderr there) and exited 1: invalid,
// CRITICAL, Consistent, over a config nobody read, where the same command
// without 2>&1 was Not sure. A script that merges stderr into stdout has
// its refusal read in stdout under a declared non-zero code; nginx's own
// refusal of the config (a directive misspelt) is still invalid,
// Consistent, and under exit 0 stdout is data, a line quoting a refusal
// (a log scan) no refusal of the command.
func TestRefusalMergedIntoStdoutIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const refused = `echo '2026/12/07 15:11:34 [emerg] 1234#1234: open() "/etc/nginx/nginx.conf" failed (13: Permission denied)' >&2; echo 'nginx: configuration file /etc/nginx/nginx.conf test failed' >&2; exit 1`
	const typo = `echo '2026/12/07 15:11:28 [emerg] 1234#1234: unknown directive "worker_conections" in /etc/nginx/nginx.conf:4' >&2; echo 'nginx: configuration file /etc/nginx/nginx.conf test failed' >&2; exit 1`
	const logLine = `echo 'Dec  7 15:00:01 web sshd[812]: error: Permission denied (publickey)'; exit 0`
	for _, tc := range []struct {
		name, script string
		code         int
		notSure      bool
	}{
		{"refused, merged", "{ " + refused + "; } 2>&1", 2, true},
		{"refused, piped with |&", "{ " + refused + "; } |& cat; exit ${PIPESTATUS[0]}", 2, true},
		{"typo, merged", "{ " + typo + "; } 2>&1", 2, false},
		{"data quoting a refusal, exit 0", "{ " + logLine + "; } 2>&1", 0, false},
	} {
		chart := writeChart(t, dir, strings.NewReplacer(" ", "-", ",", "", "|", "").Replace(tc.name)+".yaml", fmt.Sprintf(`version: 1
runbook: nginx-config
result: {kind: verdict/nginx-config, decider: Config, nagios: {ok: valid, critical: invalid}}
stages:
  - id: t
    exec: {shell: %q, parse: lines, exitCodes: {0: valid, 1: invalid}}
  - id: judge
    name: Config
    decide:
      rules:
        - {when: 't.status == "invalid"', then: invalid, label: nginx -t refused it}
      default: {branch: valid, label: test is successful}
    branches:
      invalid: [{id: b, verdict: {subject: '"nginx"', verdict: '"invalid"'}}]
      valid: [{id: o, verdict: {subject: '"nginx"', verdict: '"valid"'}}]
`, tc.script))
		r := runCLI(t, dir, "exec", chart, "--format", "nagios")
		notSure := strings.Contains(r.stdout, "on the stderr its script sends into stdout (2>&1)")
		if notSure != tc.notSure || r.code != tc.code || strings.Contains(r.stdout, "Consistent") == tc.notSure {
			t.Errorf("%s: refusal said %v exit %d, want %v exit %d:\n%s", tc.name, notSure, r.code, tc.notSure, tc.code, r.stdout)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLDAPNoSuchObjectOfAnotherBaseIsNoAnswer: slapd answers a search
// whose base is not there with noSuchObject, ldapsearch's exit 32, and
// says on stderr how much of the base it found (`Matched DN:`). A check
// that departed users' accounts are removed, `ldapsearch -s base -b
// uid=zed,ou=peple,dc=example,dc=com 1.1` under `exitCodes: {0: present,
// 32: gone}`, said gone, OK, Consistent, over ou=people misspelt, whose
// Matched DN was the suffix alone; over a suffix the server does not hold
// (or a container an ACL hides) it names none. Only a Matched DN that is
// the entry's parent says the entry itself is gone. The lines are
// ldapsearch 2.5's against a scratch slapd (testdata/wave-ldap/gone).
func TestLDAPNoSuchObjectOfAnotherBaseIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, base, stderr string
		unknown            string // "" when gone is the answer
	}{
		{"the entry gone, its parent found", "uid=zed,ou=people,dc=example,dc=com",
			"No such object (32)\nMatched DN: ou=people,dc=example,dc=com\n", ""},
		{"the parent found, written in another case and spacing", "uid=zed, OU=People,dc=example,dc=com",
			"No such object (32)\nMatched DN: ou=people,dc=example,dc=com\n", ""},
		{"a container misspelt", "uid=zed,ou=peple,dc=example,dc=com",
			"No such object (32)\nMatched DN: dc=example,dc=com\n",
			`the server found only "dc=example,dc=com" of the search base "uid=zed,ou=peple,dc=example,dc=com"`},
		{"a suffix misspelt or a container hidden", "uid=zed,ou=people,dc=exmple,dc=com",
			"No such object (32)\n", `the server named no part of the search base as found`},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		fake := filepath.Join(sub, "ldapsearch")
		if err := writeExec(fake, []byte("#!/bin/sh\nprintf '"+strings.ReplaceAll(tc.stderr, "\n", `\n`)+"' >&2\nexit 32\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: gone
result: {kind: verdict/account, decider: Removed, nagios: {ok: [gone], critical: [present]}}
stages:
  - id: lookup
    exec:
      command: ["`+fake+`", -x, -LLL, -H, "ldap://127.0.0.1:3899", -s, base, -b, "`+tc.base+`", "1.1"]
      exitCodes: {0: present, 32: gone}
  - id: removed
    name: Removed
    decide:
      rules:
        - {when: 'lookup.status == "gone"', then: gone, label: no entry at its DN}
      default: {branch: present, label: the entry is still there}
    branches:
      gone: [{id: g, verdict: {subject: '"zed"', verdict: '"gone"'}}]
      present: [{id: p, verdict: {subject: '"zed"', verdict: '"present"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if tc.unknown == "" {
			if r.code != 0 || !strings.HasPrefix(r.stdout, "gone OK") || strings.Contains(r.stdout, "Not sure") {
				t.Errorf("%s: exit %d; want 0, OK, gone:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 3 || !strings.HasPrefix(r.stdout, "gone UNKNOWN") || !strings.Contains(r.stdout, `which exitCodes: declares the answer "gone", but `+tc.unknown) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, tc.unknown, r.stdout, r.stderr)
		}
	}
}

// TestLDAPReferenceIsNoWholeAnswer: a server holding part of the tree
// elsewhere (a referral object, ou=remote on ldap2) answers a subtree
// search with a continuation reference in place of every entry there;
// ldapsearch chases none, prints it as `# refldap://…` under -LLL (after
// `# search reference` as `ref: ldap://…` without -L) and exits 0. A
// check of locked accounts reading the dn: lines, `empty: answer`, said
// OK, Consistent, with no account locked on this server and ldap2 never
// asked. The lines are ldapsearch 2.5's against a scratch slapd.
func TestLDAPReferenceIsNoWholeAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, stdout string
		ref          string // "" when the answer stands
	}{
		{"-LLL", `# refldap://ldap2.example.com/ou=remote,dc=example,dc=com??sub\n\n`, `# refldap://ldap2.example.com/ou=remote,dc=example,dc=com??sub`},
		{"without -L", `# extended LDIF\n#\n# search reference\nref: ldap://ldap2.example.com/ou=remote,dc=example,dc=com??sub\n\n# search result\nsearch: 2\nresult: 0 Success\n`, `ref: ldap://ldap2.example.com/ou=remote,dc=example,dc=com??sub`},
		{"no reference", ``, ""},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		fake := filepath.Join(sub, "ldapsearch")
		if err := writeExec(fake, []byte("#!/bin/sh\nprintf '"+tc.stdout+"'\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: locked
result: {kind: verdict/account, decider: Lock, empty: answer, nagios: {warning: [locked]}}
stages:
  - id: search
    exec:
      command: ["`+fake+`", -x, -LLL, -b, "dc=example,dc=com", "(pwdAccountLockedTime=*)", "1.1"]
      parse: lines
  - id: per
    foreach:
      items: 'map(filter(search.stdout, hasPrefix(#, "dn: ")), trimPrefix(#, "dn: "))'
      as: dn
      maxBranches: 100
      stages:
        - id: lock
          name: Lock
          decide:
            rules:
              - {when: 'dn != ""', then: locked, label: locked}
            default: {branch: locked, label: locked}
          branches:
            locked: [{id: l, verdict: {subject: dn, verdict: '"locked"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if tc.ref == "" {
			if r.code != 0 || !strings.HasPrefix(r.stdout, "locked OK") {
				t.Errorf("%s: exit %d; want 0, OK:\n%s%s", tc.name, r.code, r.stdout, r.stderr)
			}
			continue
		}
		want := `it printed a search continuation reference though it exited 0: part of the tree it searched is held by another server, which ldapsearch does not ask, so an entry there is not known to be absent; the first: "` + tc.ref + `"`
		if r.code != 3 || !strings.HasPrefix(r.stdout, "locked UNKNOWN") || !strings.Contains(r.stdout, want) {
			t.Errorf("%s: exit %d; want 3, UNKNOWN, saying %s:\n%s%s", tc.name, r.code, want, r.stdout, r.stderr)
		}
	}
}

// TestLDIFFoldedLineIsNoAnswer: ldapsearch folds a value past 76
// columns onto the next line after one space (LDIF's continuation) unless
// run with -o ldif-wrap=no, and parse: lines read the two halves as two
// lines. A check that the backup service account is no admin,
// `any(search.stdout, # == "member: uid=…,dc=example,dc=com")`, said
// not-member, OK, Consistent, over a group holding it: its DN was folded
// after `ou=people`. The output is ldapsearch 2.5's against a scratch
// slapd (testdata/wave-ldap/admins/fixtures).
func TestLDIFFoldedLineIsNoAnswer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const long = "uid=a-rather-long-service-account-name-for-the-backup-system,ou=people,dc=example,dc=com"
	for _, tc := range []struct {
		name, stdout, want string
	}{
		{"folded", "dn: cn=admins,ou=groups,dc=example,dc=com\nmember: uid=alice,ou=people,dc=example,dc=com\nmember: uid=a-rather-long-service-account-name-for-the-backup-system,ou=people\n ,dc=example,dc=com\n\n", "not-admin UNKNOWN"},
		{"-o ldif-wrap=no", "dn: cn=admins,ou=groups,dc=example,dc=com\nmember: uid=alice,ou=people,dc=example,dc=com\nmember: " + long + "\n\n", "not-admin CRITICAL"},
	} {
		sub := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "out.txt"), []byte(tc.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		fake := filepath.Join(sub, "ldapsearch")
		if err := writeExec(fake, []byte("#!/bin/sh\ncat \""+filepath.Join(sub, "out.txt")+"\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		chart := writeChart(t, sub, "chart.yaml", `version: 1
runbook: not-admin
result: {kind: verdict/account, decider: Member, nagios: {ok: [not-member], critical: [member]}}
stages:
  - id: search
    exec:
      command: ["`+fake+`", -x, -LLL, -s, base, -b, "cn=admins,ou=groups,dc=example,dc=com", member]
      parse: lines
  - id: member
    name: Member
    decide:
      rules:
        - {when: 'any(search.stdout, # == "member: `+long+`")', then: member, label: the backup account is an admin}
      default: {branch: not-member, label: the backup account is no admin}
    branches:
      member: [{id: m, verdict: {subject: '"backup"', verdict: '"member"'}}]
      not-member: [{id: n, verdict: {subject: '"backup"', verdict: '"not-member"'}}]
`)
		r := runCLI(t, sub, "exec", chart, "--format", "nagios")
		if !strings.HasPrefix(r.stdout, tc.want) {
			t.Errorf("%s: exit %d; want %s:\n%s%s", tc.name, r.code, tc.want, r.stdout, r.stderr)
		}
		if tc.want == "not-admin UNKNOWN" && (r.code != 3 || !strings.Contains(r.stdout, `the first continuation, line 4: " ,dc=example,dc=com"; run it with -o ldif-wrap=no`)) {
			t.Errorf("%s: exit %d; want 3, naming the continuation:\n%s", tc.name, r.code, r.stdout)
		}
	}
}

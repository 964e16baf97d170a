package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPasswordHashesReachNoOutput: an audit chart read `getent shadow`
// (here a file in its form) to list accounts with no password, and every
// hash stood in the record's script row, the json result and explain's
// "stdout ended with". The hash is masked but for its scheme wherever the
// run's bytes become text; the rule over the field still reads it.
func TestPasswordHashesReachNoOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const salt, hash = "Qx3kP0aZsalt", "9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.9fA.Zz"
	shadow := "root:$6$" + salt + "$" + hash + ":19700:0:99999:7:::\nguest::19700:0:99999:7:::\n"
	if err := os.WriteFile(filepath.Join(dir, "shadow"), []byte(shadow), 0o600); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "shadow.yaml", perRowChart("accounts", "Password",
		` {command: [cat, shadow], dir: `+dir+`, parse: {as: regex, pattern: '^(?P<user>[^:]*):(?P<hash>[^:]*):'}}`, "a", `
              - {when: 'a.hash == ""', then: bad, label: No password}`, "a.user"))
	record := filepath.Join(dir, "run.json")
	for _, args := range [][]string{{"exec", chart, "--record", record}, {"exec", chart, "--format", "json", "--verbose"}} {
		r := runCLI(t, dir, args...)
		if strings.Contains(r.stdout+r.stderr, salt) || !strings.Contains(r.stdout, "guest") {
			t.Errorf("%v: the hash is shown, or the rows are missing:\n%s\n%s", args, r.stdout, r.stderr)
		}
	}
	rec, err := os.ReadFile(record)
	if err != nil || strings.Contains(string(rec), salt) || !strings.Contains(string(rec), "$6$***") {
		t.Errorf("the record holds the hash (%v)", err)
	}
	if r := runCLI(t, dir, "explain", record, "--full"); strings.Contains(r.stdout, salt) {
		t.Errorf("explain shows the hash:\n%s", r.stdout)
	}
}

// TestMySQLPasswordHashesReachNoOutput: a chart listing MariaDB accounts
// with no password read mysql.user (`mysql -N -B`, here a file in its
// form), and every mysql_native_password hash stood in the record's
// script row, the json result and a verdict column. The hash is masked
// but for its `*`; the rule asking for the empty one still judges it.
func TestMySQLPasswordHashesReachNoOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const hash = "*70A1B5C748903CF24CE664A85283E7DCA1C88500"
	users := "monitor\tlocalhost\tmysql_native_password\t" + hash + "\nnopass\t%\tmysql_native_password\t\n"
	if err := os.WriteFile(filepath.Join(dir, "users.tsv"), []byte(users), 0o600); err != nil {
		t.Fatal(err)
	}
	chart := writeChart(t, dir, "users.yaml", perRowChart("accounts", "Password",
		` {command: [cat, users.tsv], dir: `+dir+`, parse: {as: tsv, header: false, names: [user, host, plugin, hash]}}`, "a", `
              - {when: 'a.hash == ""', then: bad, label: No password}`, "a.user + \"@\" + a.host + \" \" + a.hash"))
	record := filepath.Join(dir, "run.json")
	for _, args := range [][]string{{"exec", chart, "--record", record}, {"exec", chart, "--format", "json", "--verbose"}} {
		r := runCLI(t, dir, args...)
		if strings.Contains(r.stdout+r.stderr, "70A1B5C7") || !strings.Contains(r.stdout, "monitor@localhost ****") || !strings.Contains(r.stdout, "nopass@%") {
			t.Errorf("%v: the hash is shown, or the rows are missing:\n%s\n%s", args, r.stdout, r.stderr)
		}
	}
	rec, err := os.ReadFile(record)
	if err != nil || strings.Contains(string(rec), "70A1B5C7") {
		t.Errorf("the record holds the hash (%v)", err)
	}
	if r := runCLI(t, dir, "explain", record, "--full"); strings.Contains(r.stdout, "70A1B5C7") {
		t.Errorf("explain shows the hash:\n%s", r.stdout)
	}
}

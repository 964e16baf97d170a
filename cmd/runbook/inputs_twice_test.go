package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputGivenTwiceOnTheCommandLineIsRefused: a second --input of one
// name is refused, naming the name and which --input gave it each time,
// never the values (one may be a secret); --input over the --inputs file
// still overrides it. Before, the last --input won in silence: a CI job
// whose pipeline template gave --input repo=/srv/app and whose step gave
// --input repo=/srv/ap checked the misspelt one.
func TestInputGivenTwiceOnTheCommandLineIsRefused(t *testing.T) {
	t.Parallel()
	_, _, err := readInputsAt("", []string{"repo=/srv/app", "env=prod", "repo=s3cr3t"})
	if err == nil {
		t.Fatal("a name given twice was taken")
	}
	want := "--input repo is given twice (the 1st and the 3rd --input); give each input once"
	if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("error %q; want it to hold %q and no value", err, want)
	}
	file := filepath.Join(t.TempDir(), "in.yaml")
	if err := os.WriteFile(file, []byte("repo: /srv/app\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	given, _, err := readInputsAt(file, []string{"repo=/srv/web"})
	if err != nil || given["repo"] != "/srv/web" {
		t.Errorf("--input over the file: %v, %v; want /srv/web", given, err)
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

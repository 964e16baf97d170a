package chart

import (
	"testing"
)

// TestHiddenSubstitutionsAreBashs: which command substitutions of a
// shell: script bash runs under -e without keeping their exit status.
// `echo "{\"conf\": \"$(cat /etc/ssh/sshd_config)\"}"` printed an empty
// conf when the file was missing, exit 0, and a hardening rule over it
// said pass, Consistent.
func TestHiddenSubstitutionsAreBashs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		want   []Substitution
	}{
		{`echo "{\"conf\": \"$(cat /etc/x.conf)\"}"`, []Substitution{{Line: 1, Col: 20, Text: "$(cat /etc/x.conf)", In: "echo"}}},
		{"conf=$(cat /etc/x.conf)\necho \"$conf\"", nil},
		{"a=$(cat x) b=`cat y`", nil},
		{"local v=$(cat x)", []Substitution{{Line: 1, Col: 9, Text: "$(cat x)", In: "local"}}},
		{"x=$(cat y) env", []Substitution{{Line: 1, Col: 3, Text: "$(cat y)", In: "env"}}},
		{"if [ \"$(id -u)\" = 0 ]; then echo root; fi", []Substitution{{Line: 1, Col: 7, Text: "$(id -u)", In: "["}}},
		{"for f in $(ls /srv); do echo $f; done", []Substitution{{Line: 1, Col: 10, Text: "$(ls /srv)"}}},
		{"diff <(sort a) b", []Substitution{{Line: 1, Col: 6, Text: "<(sort a)", In: "diff"}}},
		{"echo `date`", []Substitution{{Line: 1, Col: 6, Text: "`date`", In: "echo"}}},
		{"v=$(echo \"$(cat x)\")", []Substitution{{Line: 1, Col: 11, Text: "$(cat x)", In: "echo"}}},
		{"cat <<EOF\n$(hostname)\nEOF", []Substitution{{Line: 2, Col: 1, Text: "$(hostname)", In: "cat"}}},
		{"echo '$(not one)'", nil},
		{"echo $((1 + 2))", nil},
		{"echo \"$(", nil}, // bash refuses it when it runs
	}
	for _, tc := range tests {
		got := (&ExecSpec{Shell: tc.script}).HiddenSubstitutions()
		if len(got) != len(tc.want) {
			t.Errorf("%q: %+v, want %+v", tc.script, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%q: [%d] %+v, want %+v", tc.script, i, got[i], tc.want[i])
			}
		}
	}
}

// TestHiddenSubstitutionsNoteSaysWhereAndWhat: plan's note names the
// first such substitution, where it is, and what to write.
func TestHiddenSubstitutionsNoteSaysWhereAndWhat(t *testing.T) {
	t.Parallel()
	got := (&ExecSpec{Shell: "echo \"$(cat a)\" \"$(cat b)\""}).HiddenSubstitutionsNote()
	want := `its script's $(cat a) (line 1:7, inside a word of echo) (and 1 more such) fails unseen by bash -e, so a run that writes on stderr over it stands Not sure; assign it first, v=$(cat a), and use "$v"`
	if got != want {
		t.Errorf("note:\n%s\nwant:\n%s", got, want)
	}
	if n := (&ExecSpec{Shell: "v=$(cat a); echo \"$v\""}).HiddenSubstitutionsNote(); n != "" {
		t.Errorf("an assignment noted: %s", n)
	}
}

// TestSubstitutionOfPrintfAloneFailsNoCommand: radclient reads its shared
// secret from a file alone, and a chart gives it `-S <(printf '%s\n'
// "$RSECRET")`; over an Access-Reject (radclient exits 1 and says
// `Expected Access-Accept got Access-Reject` on stderr) the run stood Not
// sure, saying bash does not see a command inside <(printf …) fail and to
// assign it first, v=<(printf …), which hands radclient nothing. A
// substitution whose commands are printf and echo of words alone runs no
// program and reads no file: nothing in it fails unseen (wave-radius).
// One that reads a file, runs a program or holds a substitution of its
// own still is hidden.
func TestSubstitutionOfPrintfAloneFailsNoCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		script string
		want   int
	}{
		{`printf 'User-Password = "%s"\n' "$P" | radclient -S <(printf '%s\n' "$S") h auth`, 0},
		{`tool --conf <(echo "a=$A"; echo "b=$B")`, 0},
		{`echo "$(printf %s "$X")"`, 0},
		{`tool --conf <(printf '%s\n' "$(cat /etc/x)")`, 1}, // the cat inside, once
		{`tool --conf <(printf '%s\n' "$S" < /etc/x)`, 1},
		{`tool --conf <(cat /etc/x)`, 1},
	}
	for _, tc := range tests {
		if got := (&ExecSpec{Shell: tc.script}).HiddenSubstitutions(); len(got) != tc.want {
			t.Errorf("%q: %+v, want %d", tc.script, got, tc.want)
		}
	}
}

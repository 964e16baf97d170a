package chart

import (
	"slices"
	"strings"
	"testing"
)

// A shell -c script with a pipe and no pipefail is noted; one without a
// pipe, with pipefail, with only || or a quoted |, or a shell: stage is
// not.
func TestUnguardedPipeline(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		want bool
	}{
		{[]string{"sh", "-c", "systemctl list-units --failed | wc -l"}, true},
		{[]string{"/bin/bash", "-c", "ps aux|grep -c Z"}, true},
		{[]string{"sh", "-c", "set -o pipefail; a | b"}, false},
		{[]string{"sh", "-c", "a || b"}, false},
		{[]string{"sh", "-c", "echo 'a | b'"}, false},
		{[]string{"sh", "-c", `echo "x|y" >| f`}, false},
		{[]string{"sh", "-c", "date"}, false},
		{[]string{"python3", "-c", "print(1 | 2)"}, false},
		{[]string{"sh", "script.sh"}, false},
	} {
		if got := (&ExecSpec{Command: tc.cmd}).UnguardedPipeline() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.cmd, got, tc.want)
		}
	}
	if (&ExecSpec{Shell: "a | b"}).UnguardedPipeline() != "" {
		t.Error("a shell: stage (bash -o pipefail) noted")
	}
}

// TestShellReadingAChartInputIsNoted: a shell: script is no template, so
// `seq 1 ${n}` over an input n ran `seq 1` (bash's n is empty) and a
// foreach over its lines judged one item, Consistent, with nothing said.
// The loader notes each input or var a script reads as a bash variable
// its environment does not set; one the script assigns itself, one in
// single quotes, one envFrom: gives, and bash's own are not.
func TestShellReadingAChartInputIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		shell, extra string
		want         []string
	}{
		{`seq 1 ${n}`, "", []string{"n"}},
		{`seq 1 $n; echo "$limit"`, "", []string{"n", "limit"}},
		{`echo "${n:-3}"`, "", []string{"n"}},
		{`echo '$n'`, "", nil},
		{`n=5; seq 1 $n`, "", nil},
		{`for n in 1 2; do echo $n; done`, "", nil},
		{`seq 1 $n`, ", envFrom: {n: string(n)}", nil},
		{`seq 1 $N`, ", envFrom: {N: string(n)}", nil},
		{`echo $HOME $1 $? $#`, "", nil},
		{`echo \$n`, "", nil},
		{`while read -r a n; do echo $n; done`, "", nil},
		{`grep -r n /etc; seq 1 $n`, "", []string{"n"}},
		{`platfor n; seq 1 $n`, "", []string{"n"}},
	} {
		src := "version: 1\nrunbook: t\ninputs:\n  n: {type: number, default: 3}\nvars:\n  limit: n * 2\nstages:\n  - id: s\n    exec: {shell: '" + strings.ReplaceAll(tc.shell, "'", "''") + "'" + tc.extra + "}\n"
		spec, err := Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.shell, err)
		}
		es := spec.Stages[0].Exec
		if !slices.Equal(es.ShellChartNames, tc.want) {
			t.Errorf("%s%s: noted %v, want %v", tc.shell, tc.extra, es.ShellChartNames, tc.want)
		}
		if note := es.ShellReadsChartNames(); (note != "") != (tc.want != nil) || tc.want != nil && !strings.Contains(note, "envFrom: {"+tc.want[0]+": string("+tc.want[0]+")}") {
			t.Errorf("%s: note %q", tc.shell, note)
		}
	}
}

// TestPipesIntoACompoundIsSeen: a pipeline's last code is the answering
// command's own only when that command is a simple one; a group, a
// subshell, a loop or an if after a | may end in a pipeline of its own,
// whose earlier failure its one code hides.
func TestPipesIntoACompoundIsSeen(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{`curl -sSf "$url" | promtool check metrics`, false},
		{`cat a | grep x | sort`, false},
		{`cat a | { grep x | sort; }`, true},
		{`cat a | (grep x | sort)`, true},
		{`cat a | while read l; do echo "$l" | grep x; done`, true},
		{`cd /x && cat a | grep -c x`, false},
		{`cat a |`, true},
	} {
		if got := (&ExecSpec{Shell: tc.script}).PipesIntoACompound(); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.script, got, tc.want)
		}
	}
}

// TestQuietGrepEndingAPipeIsNoted: grep -q exits at its first match, and
// under pipefail the command writing into it fails (curl's 23, a
// SIGPIPE's 141) when its output outgrows the pipe: `curl -sSf URL |
// grep -q '^node_textfile_scrape_error 0$'` answered on one run and
// failed on the next. The loader notes a pipeline ending in grep -q.
func TestQuietGrepEndingAPipeIsNoted(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   bool
	}{
		{`curl -sSf "$url" | grep -q '^node_textfile_scrape_error 0$'`, true},
		{`curl -sSf "$url" | grep -Eq 'x|y'`, true},
		{`cat a | /bin/grep --quiet x`, true},
		{`cat a | grep --silent x`, true},
		{`curl -sSf "$url" | grep '^x 0$' > /dev/null`, false},
		{`curl -sSf "$url" | grep -c x`, false},
		{`cat a | grep -eq x`, false}, // -e's pattern is "q"
		{`grep -q x a.log`, false},
		{`cat a | grep -- -q`, false},
	} {
		if got := (&ExecSpec{Shell: tc.script}).QuietGrepEndsPipe() != ""; got != tc.want {
			t.Errorf("%q: noted %v, want %v", tc.script, got, tc.want)
		}
	}
}

package chart

import (
	"reflect"
	"strings"
	"testing"
)

// TestExitBitsAnswerACodeTheyCoverWhole: fsck, e2fsck and smartctl exit
// with a bitmask, and exitCodes: could only list whole codes: e2fsck -fn
// over a filesystem with errors and a journal it could not read exited
// 12 (4, errors left, with 8, an operational error), and `{0: clean, 4:
// errors}` had every sum be a failure (wave-fsck's design question). A
// code exitCodes: does not list, every bit of which exitBits: lists, is
// an answer: its word the first listed bit it holds, into.bits every
// listed bit's; a bit not listed leaves it a failure.
func TestExitBitsAnswerACodeTheyCoverWhole(t *testing.T) {
	t.Parallel()
	fsck := &ExecSpec{ExitCodes: map[int]string{0: "clean"}, ExitBits: []ExitBit{{4, "errors"}, {1, "corrected"}}}
	smart := &ExecSpec{ExitBits: []ExitBit{{8, "failing"}, {16, "prefail"}, {64, "logged"}, {128, "selftest"}}}
	code := func(c int) *int { return &c }
	for _, tc := range []struct {
		name string
		e    *ExecSpec
		code *int
		want string
		bits []string
	}{
		{"exitCodes' own", fsck, code(0), "clean", []string{}},
		{"one bit", fsck, code(4), "errors", []string{"errors"}},
		{"the first listed bit it holds", fsck, code(5), "errors", []string{"errors", "corrected"}},
		{"the other bit", fsck, code(1), "corrected", []string{"corrected"}},
		{"a bit not listed", fsck, code(12), "", nil},
		{"no bit listed", fsck, code(8), "", nil},
		{"the order written, not the bit's size", smart, code(72), "failing", []string{"failing", "logged"}},
		{"0 with no word", smart, code(0), "", nil},
		{"no code", fsck, nil, "", nil},
	} {
		got := tc.e.Answer(tc.code, nil, nil)
		if got != tc.want {
			t.Errorf("%s: Answer = %q, want %q", tc.name, got, tc.want)
		}
		var bits []string
		if got != "" {
			bits = tc.e.BitWords(tc.code)
		}
		if !reflect.DeepEqual(bits, tc.bits) {
			t.Errorf("%s: BitWords = %#v, want %#v", tc.name, bits, tc.bits)
		}
	}
}

// TestExitBitsAreRefusedWhereNoBit: a key that is no bit of an exit code
// (a sum, 0, past 128, not a number) is a load error at it saying what
// to write; a word is needed; the words are the answer words --fail-on
// and a rule's comparison are checked against.
func TestExitBitsAreRefusedWhereNoBit(t *testing.T) {
	t.Parallel()
	chart := func(bits string) string {
		return `version: 1
runbook: t
stages:
  - id: fs
    exec:
      command: [e2fsck, -fn, /dev/sdb1]
      exitCodes: {0: clean}
      exitBits: ` + bits + `
  - id: judge
    decide:
      rules:
        - {when: 'fs.status == "errors" || "corrected" in fs.bits', then: bad, label: errors}
      default: {branch: ok, label: none}
    branches:
      bad: [{id: b, verdict: {subject: '"fs"', verdict: '"bad"'}}]
      ok: [{id: o, verdict: {subject: '"fs"', verdict: '"ok"'}}]
`
	}
	for _, tc := range []struct{ name, bits, err string }{
		{"bits", "{4: errors, 1: corrected}", ""},
		{"a sum", "{12: errors, 1: corrected}", `c.yaml:8:18: stage "fs": exec exitBits key "12" is not a bit of an exit code: write one of 1, 2, 4, 8, 16, 32, 64, 128 (12 is a sum of bits: a code that is no bitmask, such as rsync's 24 or timeout's 124, takes its word under exitCodes: ({12: errors}); list bits here only for a tool whose manual adds them to make its code, as fsck's and smartctl's do)`},
		{"zero", "{0: none, 4: errors}", `exec exitBits key "0" is not a bit of an exit code`},
		{"past a byte", "{256: big, 4: errors}", `exec exitBits key "256" is not a bit`},
		{"a list", "[4, 1]", `exec exitBits must be a map of the bits of an exit code to words, the most telling first`},
		{"no word", "{4: '', 1: corrected}", `exec exitBits word for 4`},
		{"a word none gives", "{4: error, 1: corrected}", `compares fs.status with "errors", which its exitCodes: (and exitBits:) never give (its words: clean, corrected, error)`},
	} {
		loadErr(t, tc.name, chart(tc.bits), tc.err)
	}
}

// TestExitBitsAreNoSignalsDeathOrARelaysOwnCode: bash reports a command
// a signal ended as 128+N, and timeout(1) exits 124 when it ran out (137
// when it sent KILL, 128+N under --preserve-status), and both 126 or 127
// over a command not run. `shell: timeout -s KILL "$LIMIT" e2fsck -fn
// "$IMAGE"` under exitBits: {4: errors, 128: library, 8: incomplete, 1:
// corrected} exited 137 (128+8+1) when timeout killed e2fsck, and the
// run said `library` (bits library, incomplete, corrected), CRITICAL,
// Consistent, of a check that was killed (testdata/wave-bits/fsck-killed).
// Under a shell or timeout those codes are no bitmask of the tool: a
// failure, unless exitCodes: lists them.
func TestExitBitsAreNoSignalsDeathOrARelaysOwnCode(t *testing.T) {
	t.Parallel()
	bits := []ExitBit{{4, "errors"}, {128, "library"}, {8, "incomplete"}, {1, "corrected"}, {16, "usage"}, {32, "cancelled"}, {64, "sixty-four"}, {2, "reboot"}}
	code := func(c int) *int { return &c }
	shell := &ExecSpec{Shell: `timeout -s KILL "$LIMIT" e2fsck -fn "$IMAGE"`, ExitBits: bits}
	timeout := &ExecSpec{Command: []string{"/usr/bin/timeout", "30", "smartctl", "-H", "/dev/sda"}, ExitBits: bits}
	direct := &ExecSpec{Command: []string{"e2fsck", "-fp", "/dev/sdb1"}, ExitBits: bits}
	listed := &ExecSpec{Shell: "e2fsck -fp /dev/sdb1", ExitCodes: map[int]string{137: "killed"}, ExitBits: bits}
	for _, tc := range []struct {
		name string
		e    *ExecSpec
		code int
		want string
	}{
		{"a shell's KILL", shell, 137, ""},
		{"a shell's TERM", shell, 143, ""},
		{"a shell's command not found", shell, 127, ""},
		{"a shell's command not run", shell, 126, ""},
		{"timeout ran out", timeout, 124, ""},
		{"timeout failed", timeout, 125, ""},
		{"timeout's KILL", timeout, 137, ""},
		{"a shell's own bits below", shell, 12, "errors"},
		{"128 alone is no signal", shell, 128, "library"},
		{"the tool itself", direct, 137, "library"},
		{"the tool's 124", direct, 124, "errors"},
		{"exitCodes: lists it", listed, 137, "killed"},
	} {
		if got := tc.e.Answer(code(tc.code), nil, nil); got != tc.want {
			t.Errorf("%s: Answer(%d) = %q, want %q", tc.name, tc.code, got, tc.want)
		}
	}
}

// TestSmartctlBitTwoIsAnAnswerOnlyOverAPowerMode: smartctl's bit 2 is a
// device it could not open (or that gave no IDENTIFY) as much as one in
// a low-power mode under -n standby, and smartctl says which on stdout.
// `smartctl -H -n standby -d ata /dev/vda` under exitBits: {…, 2:
// asleep} printed `Smartctl open device: /dev/vda failed: Operation not
// permitted`, exit 2, and the run said asleep, OK, Consistent, of a disk
// nobody read (testdata/wave-bits/smart-health). Such a code is an
// answer only when smartctl said `Device is in STANDBY mode, exit(2)`.
func TestSmartctlBitTwoIsAnAnswerOnlyOverAPowerMode(t *testing.T) {
	t.Parallel()
	code := func(c int) *int { return &c }
	bits := []ExitBit{{8, "failing"}, {64, "logged"}, {2, "asleep"}}
	smart := &ExecSpec{Command: []string{"smartctl", "-H", "-n", "standby", "/dev/sda"}, ExitBits: bits}
	sudo := &ExecSpec{Command: []string{"sudo", "/usr/sbin/smartctl", "-H", "-n", "standby", "/dev/sda"}, ExitCodes: map[int]string{2: "asleep"}}
	shell := &ExecSpec{Shell: `smartctl -H -n standby "$DISK"`, ExitBits: bits}
	other := &ExecSpec{Command: []string{"fsck", "-n", "/dev/sda1"}, ExitBits: []ExitBit{{4, "errors"}, {2, "reboot"}}}
	const (
		openFailed = "Smartctl open device: /dev/vda failed: Operation not permitted\n"
		noDevice   = "/dev/sdz: Unable to detect device type\nSmartctl open device: /dev/sdz failed: No such device\n"
		standby    = "smartctl 7.3 2022-02-28 r5338 [x86_64-linux] (local build)\n\nDevice is in STANDBY mode, exit(2)\n"
		standbyOS  = "/dev/sda: Device is in STANDBY (OS) mode, exit(2)\n"
	)
	for _, tc := range []struct {
		name   string
		e      *ExecSpec
		code   int
		stdout string
		want   string
	}{
		{"open refused", smart, 2, openFailed, ""},
		{"no such device", smart, 2, noDevice, ""},
		{"in standby", smart, 2, standby, "asleep"},
		{"in standby, said by the OS", smart, 2, standbyOS, "asleep"},
		{"under sudo, exitCodes:", sudo, 2, openFailed, ""},
		{"under sudo, in standby", sudo, 2, standby, "asleep"},
		{"in a script", shell, 2, openFailed, ""},
		{"another bit", smart, 72, "SMART overall-health self-assessment test result: FAILED!\n", "failing"},
		{"another tool's 2", other, 2, "", "reboot"},
	} {
		if got := tc.e.Answer(code(tc.code), []byte(tc.stdout), nil); got != tc.want {
			t.Errorf("%s: Answer(%d) = %q, want %q", tc.name, tc.code, got, tc.want)
		}
	}
}

// TestPipedAnswerNoteNamesExitBits: runbook plan notes a shell: script of
// several commands whose non-zero code is an answer (any command may
// exit with it), but it read exitCodes: alone: `cd "$D" && e2fsck -fn
// good.img` under exitBits: {4: errors, 8: incomplete, 1: corrected}
// had no note, though cd's own 1 over a folder not there is the bit
// `corrected` (a run said so, and filed it Not sure).
func TestPipedAnswerNoteNamesExitBits(t *testing.T) {
	t.Parallel()
	e := &ExecSpec{Shell: `cd "$D" && e2fsck -fn good.img`, ExitCodes: map[int]string{0: "clean"}, ExitBits: []ExitBit{{4, "errors"}, {8, "incomplete"}, {1, "corrected"}}}
	note := e.PipedAnswerNote()
	if !strings.Contains(note, "exitBits:") || !strings.Contains(note, " 1 ") {
		t.Errorf("PipedAnswerNote = %q, want it to name exitBits: and its bit 1", note)
	}
	if got := (&ExecSpec{Shell: e.Shell, ExitCodes: map[int]string{0: "clean"}}).PipedAnswerNote(); got != "" {
		t.Errorf("no non-zero answer: PipedAnswerNote = %q, want none", got)
	}
}

// TestExitBitsSumLeadsToExitCodesFirst: exitBits: {24: vanished} over
// rsync (whose 24 is one code, files that vanished, not 16 with 8) was
// refused with `(24 is a sum of bits: list each bit, or …)`, and a user
// who listed 16 and 8 made every code of those bits an answer, though
// rsync's codes are no bitmask (its 10, 12, 20, 30 are sums of them
// too). The hint gives exitCodes: first, and bits only for a tool whose
// manual adds them.
func TestExitBitsSumLeadsToExitCodesFirst(t *testing.T) {
	t.Parallel()
	loadErr(t, "rsync's 24", `version: 1
runbook: t
stages:
  - id: sync
    exec:
      command: [rsync, -a, /etc/, /backup/etc/]
      exitCodes: {0: complete}
      exitBits: {24: vanished}
`, `c.yaml:8:18: stage "sync": exec exitBits key "24" is not a bit of an exit code: write one of 1, 2, 4, 8, 16, 32, 64, 128 (24 is a sum of bits: a code that is no bitmask, such as rsync's 24 or timeout's 124, takes its word under exitCodes: ({24: vanished}); list bits here only for a tool whose manual adds them to make its code, as fsck's and smartctl's do)`)
}

// TestFsckOneUnderNoChangesIsNoCorrected: fsck's bit 1 is errors
// corrected, but under -n nothing is written, and fsck.fat (dosfstools)
// exits 1 over errors it found and left (`Leaving filesystem
// unchanged.`): `fsck -n /dev/sdc1` over a FAT whose copies differ
// under exitBits: {4: errors, 8: incomplete, 1: corrected} said
// `corrected`, WARNING, Consistent, of errors left in place
// (testdata/wave-bits/fsck-vfat). Under the fsck front end with -n a code
// holding 1 is no answer: a failure, Not sure; a checker run by its own
// name is read by its own manual.
func TestFsckOneUnderNoChangesIsNoCorrected(t *testing.T) {
	t.Parallel()
	code := func(c int) *int { return &c }
	bits := []ExitBit{{4, "errors"}, {8, "incomplete"}, {1, "corrected"}}
	for _, tc := range []struct {
		name string
		e    *ExecSpec
		code int
		want string
	}{
		{"fsck -n", &ExecSpec{Command: []string{"fsck", "-n", "/dev/sdc1"}, ExitBits: bits}, 1, ""},
		{"fsck -n, 5", &ExecSpec{Command: []string{"/usr/sbin/fsck", "-n", "/dev/sdc1"}, ExitBits: bits}, 5, ""},
		{"fsck -n under sudo, exitCodes:", &ExecSpec{Command: []string{"sudo", "fsck", "-n", "/dev/sdc1"}, ExitCodes: map[int]string{0: "clean", 1: "corrected"}}, 1, ""},
		{"fsck.vfat by its name, whose 1 is errors found", &ExecSpec{Command: []string{"fsck.vfat", "-n", "/dev/sdc1"}, ExitCodes: map[int]string{0: "clean", 1: "corrupt"}}, 1, "corrupt"},
		{"in a script", &ExecSpec{Shell: `fsck -n "$DEV"`, ExitBits: bits}, 1, ""},
		{"-n errors stay errors", &ExecSpec{Command: []string{"fsck", "-n", "/dev/sdc1"}, ExitBits: bits}, 4, "errors"},
		{"-p corrects", &ExecSpec{Command: []string{"fsck", "-p", "/dev/sdc1"}, ExitBits: bits}, 1, "corrected"},
		{"-y corrects", &ExecSpec{Command: []string{"e2fsck", "-fy", "/dev/sdc1"}, ExitBits: bits}, 5, "errors"},
		{"-N is fsck's dry run, no option of the checker", &ExecSpec{Command: []string{"fsck", "-N", "/dev/sdc1"}, ExitBits: bits}, 1, "corrected"},
		{"another tool's -n", &ExecSpec{Command: []string{"smartctl", "-n", "standby", "-H", "/dev/sda"}, ExitBits: []ExitBit{{8, "failing"}, {1, "usage"}}}, 1, "usage"},
	} {
		if got := tc.e.Answer(code(tc.code), nil, nil); got != tc.want {
			t.Errorf("%s: Answer(%d) = %q, want %q", tc.name, tc.code, got, tc.want)
		}
	}
}

// TestExitBitsWrittenAscendingAreNoted: fsck(8) lists its bits from 1 up,
// and a chart copying it, {1: corrected, 4: errors}, reads fsck's 5 as
// corrected, a WARNING where errors remain: plan notes the order; the
// most telling bit first, or a single bit, is not noted.
func TestExitBitsWrittenAscendingAreNoted(t *testing.T) {
	t.Parallel()
	asc := &ExecSpec{ExitBits: []ExitBit{{1, "corrected"}, {4, "errors"}}}
	if got, want := asc.ExitBitsAscendingNote(), "5 (1 with 4) reads corrected, not errors"; !strings.Contains(got, want) {
		t.Errorf("ascending: %q, want it to say %q", got, want)
	}
	for _, e := range []*ExecSpec{
		{ExitBits: []ExitBit{{4, "errors"}, {1, "corrected"}}},
		{ExitBits: []ExitBit{{8, "failing"}, {64, "logged"}, {16, "prefail"}}},
		{ExitBits: []ExitBit{{4, "errors"}}},
		{},
	} {
		if got := e.ExitBitsAscendingNote(); got != "" {
			t.Errorf("%v: noted %q", e.ExitBits, got)
		}
	}
}

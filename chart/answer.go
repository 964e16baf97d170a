package chart

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Answer is the chart's word for an exit code (`exitCodes:`), "" when
// there is no code (the command never ended by itself), the chart did not
// list it, or it listed it with a stderr text (AnswerStderr) that stderr
// does not hold, in any case: then the code is a failure of the command,
// not the answer, since the command said something else went wrong. A
// code exitBits: covers whole is the word of its first listed bit
// (bitsAnswer), unless a shell or timeout may have given it (RelaysCode).
// Under either, smartctl's bit 2 without its line on stdout saying the
// device is in a low-power mode (smartctlPowerMode) is a device it could
// not open, fsck -n's bit 1 no correction (FsckChangesNothing),
// and radclient's 1 without a reply no Access-Reject (radclientReceived)
// (a configuration checker's code over a file it could not open is a
// tool error, record.ToolError's). It is
// the one judgement of whether an exit is an answer (NotAnswer says why a
// declared code is not); the script row, the stage's status and every
// item that reads the answer take it from here.
func (e *ExecSpec) Answer(code *int, stdout, stderr []byte) string {
	word, _ := e.answer(code, stdout, stderr)
	return word
}

// NotAnswer is why a code the chart declared an answer (exitCodes: lists
// it, or exitBits: covers it whole) is not one here, in words a script's
// line ends with (`completed with failure, exit 2: exitCodes: gives 2 …`);
// "" when the code is an answer, or the chart declared none for it. A
// declared code that reads as a failure said only "completed with
// failure, exit 2", and the reader could not tell why (wave-bits).
func (e *ExecSpec) NotAnswer(code *int, stdout, stderr []byte) string {
	_, why := e.answer(code, stdout, stderr)
	return why
}

// answer is Answer's word, or, for a declared code it refuses, why.
func (e *ExecSpec) answer(code *int, stdout, stderr []byte) (word, why string) {
	if code == nil {
		return "", ""
	}
	c := *code
	word, ok := e.ExitCodes[c]
	switch {
	case ok:
		if want, has := e.AnswerStderr[c]; has && !stderrSays(stderr, want) {
			return "", fmt.Sprintf("exitCodes: gives %d the word %q only when stderr says %q, and it did not", c, word, want)
		}
	case e.bitsCover(c) && e.RelaysCode(c):
		return "", fmt.Sprintf("exitBits: covers %d, but it is the shell's or timeout's own code (124 to 127, or 128 and a signal's number), not the tool's bits", c)
	default:
		word = e.bitsAnswer(c)
	}
	if word == "" {
		return "", ""
	}
	if c&2 != 0 && e.runsSmartctl() && !smartctlPowerMode.Match(stdout) {
		// smartctl's bit 2 is a device it could not open as much as
		// one asleep under -n, and it says which on stdout
		return "", fmt.Sprintf("the chart reads %d as %q, but smartctl's 2 is an answer only beside its line saying the device is in a low-power mode (Device is in STANDBY mode, exit(2)), and it printed none: a device it could not open", c, word)
	}
	if c == 1 && e.runsRadclient() && !radclientReceived.Match(stdout) {
		// radclient's 1 is an Access-Reject as much as no reply at all
		return "", fmt.Sprintf("the chart reads 1 as %q, but radclient's 1 is an answer only beside its line saying it received a reply (Received Access-Reject Id …), and it printed none: no reply came, or none it could verify (a server stopped or not reached, a client the server does not know, a shared secret it does not share)", word)
	}
	if c&1 != 0 && e.FsckChangesNothing() {
		// fsck's 1 is errors corrected, and -n corrects none: fsck.fat's
		// 1 is errors found and left
		return "", fmt.Sprintf("the chart reads %d as %q, but fsck -n corrects nothing: its 1 is the checker's own (fsck.fat's errors found and left)", c, word)
	}
	return word, ""
}

// radclientReceived is the line radclient (FreeRADIUS 3.x; radtest runs
// it) prints on stdout for a reply it read and verified: `Received
// Access-Reject Id 171 from 127.0.0.1:1812 to 127.0.0.1:54513 length 20`.
// It exits 1 over an Access-Reject and over no reply alike: a server
// stopped, a client the server does not know or a shared secret it does
// not share (the server drops the packet without a word, or rejects it
// with a Response Authenticator radclient cannot verify, which it says
// on stderr) print `Sent …` alone, and a chart's {1: rejected} said
// rejected, Consistent, of a server nobody reached
// (TestRadclientOneIsAnAnswerOnlyOverAReply). Under -q it prints no
// such line, and its 1 is no answer.
var radclientReceived = regexp.MustCompile(`(?m)^Received [A-Za-z-]+ Id \d+ `)

// radclientInShell finds radclient or radtest in a shell: script.
var radclientInShell = regexp.MustCompile(`(^|[\s;&|(/])(radclient|radtest)(\s|$)`)

// runsRadclient says whether the exec runs radclient or radtest: as its
// command, behind a command that runs another (sudo, timeout), or in its
// shell: script.
func (e *ExecSpec) runsRadclient() bool {
	if e == nil {
		return false
	}
	for _, a := range e.Command {
		if b := filepath.Base(a); b == "radclient" || b == "radtest" {
			return true
		}
	}
	return e.Shell != "" && radclientInShell.MatchString(e.Shell)
}

// bitsCover says whether exitBits: lists every bit of a non-zero code.
func (e *ExecSpec) bitsCover(code int) bool {
	if code == 0 || len(e.ExitBits) == 0 {
		return false
	}
	rest := code
	for _, b := range e.ExitBits {
		rest &^= b.Bit
	}
	return rest == 0
}

// FsckChangesNothing says whether the exec runs the fsck front end
// (util-linux's fsck; as its command, behind sudo or timeout, or in its
// shell: script) with -n, which it hands to the checker: nothing is
// corrected, so its bit 1, errors corrected, is no finding of fsck(8)'s
// but the checker's own: fsck.fat's 1 is errors found and left (`Leaving
// filesystem unchanged.`), and `fsck -n /dev/sdc1` under exitBits: {4:
// errors, 1: corrected} said corrected, WARNING, of a FAT left with its
// errors (TestFsckOneUnderNoChangesIsNoCorrected). A checker run by its
// own name (fsck.vfat -n, whose manual gives 1 as errors found) is read
// as the chart says; fsck's own -N (a dry run) is not -n.
func (e *ExecSpec) FsckChangesNothing() bool {
	return e.noteOfEachCommand(func(argv []string) string {
		for i, a := range argv {
			if filepath.Base(a) != "fsck" {
				continue
			}
			for _, o := range argv[i+1:] {
				if o == "--" {
					continue
				}
				if len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.ContainsRune(o[1:], 'n') {
					return "n"
				}
			}
			return ""
		}
		return ""
	}) != ""
}

// smartctlPowerMode is smartctl's line (on stdout, in its text and its
// -j JSON alike) saying it left a device in a low-power mode unread under
// -n: `Device is in STANDBY mode, exit(2)`. Its bit 2 is an answer only
// with it: without it the 2 is a device it could not open (`Smartctl
// open device: /dev/vda failed: Operation not permitted`, `No such
// device`) or that gave no IDENTIFY, and a chart's {2: asleep} said asleep,
// OK, of a disk nobody read (TestSmartctlBitTwoIsAnAnswerOnlyOverAPowerMode).
var smartctlPowerMode = regexp.MustCompile(`Device is in [A-Z][A-Za-z ()]* mode, exit\(\d+\)`)

// smartctlInShell finds smartctl in a shell: script.
var smartctlInShell = regexp.MustCompile(`(^|[\s;&|(/])smartctl(\s|$)`)

// runsSmartctl says whether the exec runs smartctl: as its command, behind
// a command that runs another (sudo, timeout), or in its shell: script.
func (e *ExecSpec) runsSmartctl() bool {
	if e == nil {
		return false
	}
	for _, a := range e.Command {
		if filepath.Base(a) == "smartctl" {
			return true
		}
	}
	return e.Shell != "" && smartctlInShell.MatchString(e.Shell)
}

// bitsAnswer is the word of a code exitCodes: does not list that
// exitBits: covers whole (bitsCover): the first listed bit it holds; ""
// for 0 (no bit to name; exitCodes: gives it a word), and for a code
// holding a bit not listed (fsck's 8, an operational error, beside its 4,
// errors left: the check did not run to its end, and 12 is no answer of
// errors). A relay's own code is answer's to refuse, with its reason.
func (e *ExecSpec) bitsAnswer(code int) string {
	if !e.bitsCover(code) {
		return ""
	}
	for _, b := range e.ExitBits {
		if code&b.Bit != 0 {
			return b.Word
		}
	}
	return ""
}

// RelaysCode says whether code may be no code of the tool at all but
// what stands between runbook and it said: bash (a shell: script, or a
// command that is bash, sh …) reports a command a signal ended as 128+N
// and one it could not run as 126 or 127; timeout(1) exits 124 when the
// time ran out, 125 when it failed, 126 or 127, 137 when it sent KILL,
// and 128+N under --preserve-status. Read as bits those are a tool's
// findings (137 is 128+8+1: e2fsck's library error, operational error
// and errors corrected), so exitBits: never reads them (answer);
// exitCodes: may still list one.
func (e *ExecSpec) RelaysCode(code int) bool {
	if code < 124 || code == 128 {
		return false
	}
	relay := e.Shell != ""
	if len(e.Command) > 0 {
		switch filepath.Base(e.Command[0]) {
		case "timeout", "bash", "sh", "dash", "zsh", "ksh":
			relay = true
		}
	}
	// bash's own are 126, 127 and past 128; 124 and 125 are timeout's,
	// which a script may run
	return relay
}

// ExitBitsAscendingNote notes exitBits: written from its smallest bit
// up, as fsck(8) and smartctl(8) list their bits: a code's status is the
// first listed bit it holds, so under {1: corrected, 4: errors} fsck's 5
// (errors corrected, and errors left) reads corrected, a WARNING where
// errors remain (wave-bits). A note, not an error: the order is the
// chart's to give, and for some tools a smaller bit is the more telling
// (smartctl's 8, disk failing, beside its 64). "" for none, or one bit.
func (e *ExecSpec) ExitBitsAscendingNote() string {
	if e == nil || len(e.ExitBits) < 2 {
		return ""
	}
	for i := 1; i < len(e.ExitBits); i++ {
		if e.ExitBits[i].Bit < e.ExitBits[i-1].Bit {
			return ""
		}
	}
	first, last := e.ExitBits[0], e.ExitBits[len(e.ExitBits)-1]
	return fmt.Sprintf("its exitBits: are written from the smallest bit up, and a code's status is the first listed bit it holds: %d (%d with %d) reads %s, not %s; list the most telling bit first if that is not what it should say", first.Bit+last.Bit, first.Bit, last.Bit, first.Word, last.Word)
}

// BitWords are the words of every bit of code exitBits: lists, in the
// order written (none for 0), when the chart declared exitBits:; nil
// otherwise. Asked of a code that is an answer, it is `into.bits`, so a
// rule can see each finding of e2fsck's 5 (errors left, and errors
// corrected) or smartctl's 72, and test it on every answer alike
// (`"errors" in fs.bits` over exit 0 is false, not a missing member).
func (e *ExecSpec) BitWords(code *int) []string {
	if code == nil || len(e.ExitBits) == 0 {
		return nil
	}
	out := []string{}
	for _, b := range e.ExitBits {
		if *code&b.Bit != 0 {
			out = append(out, b.Word)
		}
	}
	return out
}

// AnswerWords are every word an exit of the command may answer with:
// exitCodes:' and exitBits:'.
func (e *ExecSpec) AnswerWords() []string {
	var out []string
	for _, w := range e.ExitCodes {
		out = append(out, w)
	}
	for _, b := range e.ExitBits {
		out = append(out, b.Word)
	}
	return out
}

// DeclaresStderrIn says whether the stderr text the chart gave code's
// answer (`{word: W, stderr: TEXT}`) is in line: the chart declared that
// very line its answer, where a line beside the text is not vouched for
// by it (a tool's own failure under nginx -t's `test failed`).
func (e *ExecSpec) DeclaresStderrIn(code int, line string) bool {
	want, ok := e.AnswerStderr[code]
	return ok && stderrSays([]byte(line), want)
}

// stderrSays says whether stderr holds text, in any case: how an exit
// code's stderr text is matched (ExecSpec.Answer).
func stderrSays(stderr []byte, text string) bool {
	return strings.Contains(strings.ToLower(string(stderr)), strings.ToLower(text))
}

// AnswerNeedsStderr says whether the chart gave the code a stderr text the
// answer goes with: an answer given so is the chart's own word that the
// command's complaint on stderr is the answer (a `Permission denied`
// declared for `setpriv … cat /etc/shadow`'s 1, not-readable), not a
// refusal hiding behind the code.
func (e *ExecSpec) AnswerNeedsStderr(code int) bool {
	_, ok := e.AnswerStderr[code]
	return ok
}

// commandIs says whether the exec's command (not a shell: script) runs a
// program of one of these names, by the base of its first word
// (/usr/bin/jq is jq): the one judgement every note about a tool's own
// ways starts from. False for a nil exec and a shell: one.
func (e *ExecSpec) commandIs(names ...string) bool {
	return e != nil && len(e.Command) > 0 && slices.Contains(names, filepath.Base(e.Command[0]))
}

// runs says whether the exec runs a program of one of these names, as its
// command (commandIs) or in its shell: script, where inShell finds it.
func (e *ExecSpec) runs(inShell *regexp.Regexp, names ...string) bool {
	return e.commandIs(names...) || e != nil && e.Shell != "" && inShell.MatchString(e.Shell)
}

// noteOfEachCommand is note's first word of a command the exec runs: its
// command: argv, or each command of its shell: script read with shfmt's
// parser, in order ("" when note has none, or the script does not
// parse). A word of a script is its value where bash would expand none
// of it ('MemoryCurrent,MemoryMax' quoted is its text), and "" where it
// would ($U, $(…)): a value not known here, which each note says what it
// makes of.
func (e *ExecSpec) noteOfEachCommand(note func(argv []string) string) string {
	if e == nil {
		return ""
	}
	if len(e.Command) > 0 {
		return note(e.Command)
	}
	if e.Shell == "" {
		return ""
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return ""
	}
	said := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || said != "" || len(c.Args) == 0 {
			return said == ""
		}
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i] = literalWord(w)
		}
		said = note(words)
		return said == ""
	})
	return said
}

// literalWord is a shell word's value when bash expands none of it: plain
// text, 'single quoted', "double quoted" with no $ or ` in it, or these
// run together; "" otherwise.
func literalWord(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			if p.Dollar {
				return ""
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return ""
				}
				b.WriteString(l.Value)
			}
		default:
			return ""
		}
	}
	return b.String()
}

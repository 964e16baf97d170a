package rules

import "testing"

// TestContainsOverNullOrBytesIsAnError: journalctl -o json writes a field
// over 4096 bytes as null and one that is not UTF-8 as the list of its
// bytes. expr's contains gave false over the null, so
// filter(j, #.MESSAGE contains "ERROR") missed the error whose stack trace
// was too long and said nothing, and a Go panic's "interface conversion:
// interface {} is []interface {}, not string" over the bytes. Both are
// errors now, naming the operation as written, the kind met and what to
// write; two strings, and a null the expression says the meaning of, read
// as before.
func TestContainsOverNullOrBytesIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"long":  map[string]any{"PRIORITY": "3", "MESSAGE": nil},
		"bytes": map[string]any{"PRIORITY": "3", "MESSAGE": []any{69, 82, 82, 79, 82, 32, 255}},
		"text":  map[string]any{"PRIORITY": "3", "MESSAGE": "ERROR payment failed"},
		"n":     map[string]any{"status": 503},
		"lines": []any{map[string]any{"MESSAGE": "ok"}, map[string]any{"MESSAGE": nil}},
	}
	runOutcomes(t, env, []outcomeCase{
		{`text.MESSAGE contains "ERROR"`, true, ""},
		{`text.MESSAGE startsWith "ERROR"`, true, ""},
		{`text.MESSAGE endsWith "failed"`, true, ""},
		{`long.MESSAGE contains "ERROR"`, false, `long.MESSAGE contains "ERROR": contains reads text, and its left side is null`},
		{`long.MESSAGE startsWith "ERROR"`, false, `(x ?? "") startsWith …`},
		{`(long.MESSAGE ?? "") contains "ERROR"`, false, ""},
		{`long.MESSAGE != nil && long.MESSAGE contains "ERROR"`, false, ""},
		{`bytes.MESSAGE contains "ERROR"`, false, `bytes.MESSAGE contains "ERROR": contains reads text, and its left side is a list of 7 numbers from 0 to 255: bytes, as journalctl -o json writes a field that is not UTF-8`},
		{`n.status contains "5"`, false, `contains reads text, and its left side is a number; make it text (string(x))`},
		{`"ERROR" endsWith text.PRIORITY`, false, ""},
		{`"ERROR" endsWith long.MESSAGE`, false, `its right side is null`},
		{`len(filter(lines, #.MESSAGE contains "ERROR")) == 0`, false, `.MESSAGE contains "ERROR": contains reads text, and its left side is null`},
	})
}

// TestMatchesOverNullIsAnError: `matches` gave false over a null as
// contains did, so filter(j, #.MESSAGE matches "(?i)error") missed the
// journal's long message (null) in silence; it is the same error now,
// and its pattern is still checked when the expression compiles.
func TestMatchesOverNullIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"long":  map[string]any{"MESSAGE": nil},
		"bytes": map[string]any{"MESSAGE": []any{69, 82, 82}},
		"text":  map[string]any{"MESSAGE": "db Error: timeout"},
		"re":    "(?i)error",
	}
	runOutcomes(t, env, []outcomeCase{
		{`text.MESSAGE matches "(?i)error"`, true, ""},
		{`text.MESSAGE matches re`, true, ""},
		{`text.MESSAGE matches "^ok"`, false, ""},
		{`long.MESSAGE matches "(?i)error"`, false, `long.MESSAGE matches "(?i)error": matches reads text, and its left side is null`},
		{`(long.MESSAGE ?? "") matches "(?i)error"`, false, ""},
		{`bytes.MESSAGE matches "(?i)error"`, false, `matches reads text, and its left side is a list of 3 numbers from 0 to 255`},
	})
	if _, err := Compile(`text.MESSAGE matches "(unclosed"`); err == nil {
		t.Errorf("a pattern that does not compile was not refused when the expression compiled")
	}
}

// TestInOverNullIsAnError: a Go plugin's nil slice is written as null, and
// `"openssl" in inv.missing` was false in silence — the package
// "present", Consistent, Nagios OK, over a list nobody read (`not in`
// true alike). It is an error now, as contains over null is; a list, an
// object's keys, and a null the expression says the meaning of read as
// before.
func TestInOverNullIsAnError(t *testing.T) {
	t.Parallel()
	env := mapEnv{
		"inv":  map[string]any{"missing": nil, "held": []any{"curl"}, "byName": map[string]any{"curl": "8.5"}},
		"name": "openssl",
	}
	runOutcomes(t, env, []outcomeCase{
		{`"curl" in inv.held`, true, ""},
		{`"curl" in inv.byName`, true, ""},
		{`name in inv.missing`, false, `name in inv.missing: in reads a list (or an object's keys), and it is null`},
		{`name not in inv.missing`, false, `x in (list ?? [])`},
		{`name in (inv.missing ?? [])`, false, ""},
		{`inv.missing != nil && name in inv.missing`, false, ""},
	})
}

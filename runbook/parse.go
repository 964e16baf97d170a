package runbook

import (
	"fmt"

	"github.com/openrunbook/runbook/internal/parse"
	"github.com/openrunbook/runbook/record"
)

// parsed is text read as spec says (internal/parse, the one home of the
// parsers), for exec's stdout and read's content alike. A json value is a
// stage result and passes through coverage (rs.result), as it always has.
// Lines the parser could not read are never dropped in silence: out gets
// parseProblems {count, first}, the run's ledger an unparsed item for the
// stage (so the assessment sees the gap), and its warnings a line; a json
// text that is not JSON keeps its parseError too, and the value is the text.
// of names the text for the ledger ("its output", "the file /etc/x").
func (rs *runState) parsed(path string, spec parse.Spec, text, of string, out map[string]any) any {
	return rs.parsedAs(path, spec, text, of, out, true)
}

// parsedAs is parsed; with file unset, a text the mode cannot read is
// not filed or warned of: the empty output of a command that never
// started is none of its output, and its script row already says why.
func (rs *runState) parsedAs(path string, spec parse.Spec, text, of string, out map[string]any, file bool) any {
	if spec.Mode == "" {
		spec.Mode = "text"
	}
	res, err := parse.Parse(text, spec)
	if err != nil {
		// A chart built in Go, not checked by the loader: the text is kept,
		// and the run says why it was not parsed.
		msg := rs.mask(err.Error())
		out["parseError"] = msg
		rs.warn(path, msg+"; kept as text")
		return text
	}
	v := res.Value
	if res.Problems > 0 {
		if file {
			// of names a file by its path, which a secret may be part of.
			first, of := rs.mask(res.FirstProblem), rs.mask(of)
			out["parseProblems"] = map[string]any{"count": res.Problems, "first": first}
			counted := parse.Counted(res.Problems, res.Unit)
			rs.fileLedger(record.UnparsedEntry(path, of, spec.Mode, counted, res.Problems == 1, first))
			rs.warn(path, fmt.Sprintf("parse: %s could not read %s of %s (the first: %s)", spec.Mode, counted, of, first))
			if spec.Mode == "json" {
				out["parseError"] = "stdout is not JSON: " + first
			}
		}
		if spec.Mode == "json" {
			return v // the text as it is
		}
	}
	if spec.Mode == "json" {
		if member, top, nested := record.UtilLinuxTree(v); member != "" && file {
			// findmnt -J and lsblk -J print a tree: a foreach over the
			// top-level list judges the roots alone (record.ItemTree).
			rs.fileLedger(record.TreeEntry(path, rs.mask(of), member, top, nested))
		}
		if dev, at, n := record.LsblkUntyped(v); n > 0 && file {
			// lsblk -J with a mounted device of no type: it read no
			// types, and its nulls say nothing (record.ItemLsblkUntyped)
			rs.fileLedger(record.LsblkUntypedEntry(path, rs.mask(of), rs.mask(dev), rs.mask(at), n))
		}
		if n := record.RoundedNumber(v); n != "" && file {
			// a float64's print of a number past 2^53: jq 1.6 rounded
			// it (record.ItemRounded)
			rs.fileLedger(record.RoundedEntry(path, rs.mask(of), n))
		}
		return rs.result(path, v)
	}
	return v
}

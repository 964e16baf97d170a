package record

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemRounded is the kind of the not-checked item filed for a parse:
// json whose value holds a whole number past 2^53 written as a float64
// prints it (RoundedNumber): its digits past the float's 17 are zeros
// the float wrote, not the source's, so it was rounded before it was
// printed. jq 1.6 reads every number as a float64: `ip -j -s link | jq
// '…'` or a sentinel 18446744073709551615 (u64 max, "no limit") printed
// as 18446744073709552000, and a rule asking `== 18446744073709551615`
// was a plain no, Consistent (cmd/runbook TestRoundedNumberIsNoAnswer).
// A number the source wrote whole is kept as it is (jsonv), so this is
// only ever a printer's rounding.
const ItemRounded = "rounded"

// twoTo53 is 2^53: every whole number up to it is a float64 exactly.
var twoTo53 = new(big.Int).Lsh(big.NewInt(1), 53)

// RoundedNumber is the first whole number in v (a parsed JSON value, its
// object members in key order) past 2^53 that is no float64 exactly while
// its text is how a float64 prints (strconv's shortest form): a float's
// print, its digits past the 17th the float's zeros. "" when none.
func RoundedNumber(v any) string {
	switch x := v.(type) {
	case int:
		return roundedText(strconv.Itoa(x))
	case int64:
		return roundedText(strconv.FormatInt(x, 10))
	case uint64:
		return roundedText(strconv.FormatUint(x, 10))
	case float64:
		// jsonv keeps as a float64 a whole number whose text is how the
		// float prints: that text is this. Past 1e21 a printer writes an
		// exponent (1e+23), a float's own form, and no rounding of digits.
		if x == math.Trunc(x) && math.Abs(x) < 1e21 {
			return roundedText(strconv.FormatFloat(x, 'f', -1, 64))
		}
	case json.Number:
		return roundedText(string(x))
	case []any:
		for _, e := range x {
			if s := RoundedNumber(e); s != "" {
				return s
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if s := RoundedNumber(x[k]); s != "" {
				return s
			}
		}
	}
	return ""
}

// roundedText is s when it is such a number, "" otherwise.
func roundedText(s string) string {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.ContainsAny(digits, ".eE") {
		return ""
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok || new(big.Int).Abs(n).Cmp(twoTo53) <= 0 {
		return ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || strconv.FormatFloat(f, 'f', -1, 64) != s {
		return ""
	}
	exact, _ := new(big.Float).SetFloat64(f).Int(nil)
	if exact.Cmp(n) == 0 {
		return ""
	}
	return s
}

// RoundedEntry is the ledger's entry for such a stage: of names the text
// (its output, a file), number the first such number (RoundedNumber).
func RoundedEntry(path, of, number string) coverage.Entry {
	return coverage.Entry{Path: path, Declaration: coverage.Declaration{
		Kind: coverage.KindLedger,
		NotChecked: []coverage.Item{{
			What: of,
			Why: fmt.Sprintf("it holds %s, a whole number past 2^53 written as a float64 prints it, the digits past its 17th the float's zeros: it was rounded before it was printed (jq 1.6 reads every number as a float64, and prints 18446744073709551615 so), so it is not the number the source held and a rule over it judges another; read the number from the tool itself (parse: json), or with jq 1.7, which keeps a number it does not compute on",
				number),
			Kind: ItemRounded,
		}},
	}}
}

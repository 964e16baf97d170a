// Package secret is the one home of what a secret looks like once it is
// text: every place that shows a run's values (the record, events, the
// narrative, messages, a plugin's stderr, a command's output) asks a Set
// to mask them, and nothing else decides what a secret's text is.
//
// It owns one rule. A value is a secret when the person said so (a
// `secret: true` input), when it is a member of such a value, or when it
// was derived from one (Derived). Each secret is held in one of two ways:
//
//	what                                   held as       masked where
//	a secret input's string or number      text          inside any text, any length
//	its text without the white space       text          inside any text, when ≥ MinFragment bytes
//	around it, and each line of it so
//	stripped (how a shell prints it)
//	the password of a secret connection    text          inside any text, when ≥ MinFragment bytes
//	string (a URI's user:PW@, password=),
//	as written and percent-decoded
//	a member (string, number) of a secret  text          inside any text, when ≥ MinFragment bytes;
//	object or list, at any depth                         shorter: only a value that is it whole
//	a secret bool, object or list          whole         only a value that is it whole
//	a value derived from a secret          text          inside any text, when ≥ MinDerived bytes,
//	                                                     or ≥ MinFragment and a piece of a text held
//	                                                     (a split part, a slice); else not held
//
// A text is recognized in every representation a value takes on its way
// out, and each is replaced by Masked:
//
//	exact                 hunter2"<x           the text itself, inside larger text too
//	upper or lower case   HUNTER2"<X           of a string ≥ MinDerived bytes, not letters alone (addCases)
//	JSON-escaped          hunter2\"\u003cx     encoding/json, with and without HTML escaping
//	Go-quoted             hunter2\"<x          %q and strconv.QuoteToASCII, without the quotes
//	a number's other text 7.3914021e+07        %v of it as a float64, %g, %e
//	URL-escaped           hunter2%22%3Cx       a query's (url.QueryEscape) and a path's
//	                                           (url.PathEscape)
//	base64                aHVudGVyMiI8eA==     standard and URL alphabets, padded or not, and
//	                      (…)dW50ZXIyIjx4(…)   the part that stays the same wherever in a longer
//	                                           encoded text it falls (`user:` + token, the
//	                                           Basic auth header), of a text ≥ MinBase64 bytes
//	cut at a boundary     …hunt  /  er2"<x…    a prefix of any form above before a cut
//	                                           mark ("…" or "..."), a suffix after one,
//	                                           when ≥ MinFragment bytes; at the text's own
//	                                           end or start when ≥ MinEndFragment (Holds:
//	                                           at a cut mark only)
//
// @example
//
//	s := secret.New()
//	s.Add(`pa"ss-w0rd`)
//	s.Text(`header = "Bearer pa\"ss-w0rd"`)   → `header = "Bearer ***"`
//	s.Text(`token pa"ss…`)                     → `token ***…`
//
// A private key is a secret by its form (PrivateKeys): its material is
// masked wherever a stream or a text is, held by no Set.
//
// It never reads anything but its arguments, and a zero Set masks nothing
// else.
package secret

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/openrunbook/runbook/internal/jsonv"
)

// Masked replaces a secret wherever it would be shown.
const Masked = "***"

// MinFragment is the shortest piece of a secret masked on its own: a cut
// text's last bytes that begin a secret (or first bytes that end one), and
// a member of a secret object searched for inside other text. Shorter
// pieces are left: three bytes tell little of any secret worth the name,
// and masking them would mask the ends of ordinary words and every small
// number in every line (a member `port: 22` would hide each "22").
const MinFragment = 4

// MinEndFragment is the shortest piece of a secret masked at a shown
// text's own start or end, where no cut mark says the text was cut there
// (an output's tail may begin inside a secret), when the text goes on
// past it: 4 or 5 bytes there are as likely a year, a port or a word the
// text begins with as a cut secret, and masking them tells a reader which
// bytes the secret's are: under a password ending "2026", every restic
// snapshot time read "***-12-06T09:00:00Z". A text that is a piece of
// MinFragment bytes or more, whole, is masked.
const MinEndFragment = 6

// MinDerived is the shortest value derived from a secret (Derived) that is
// masked inside other text. A shorter one (`len(token)`, a flag, a count)
// is not held: masking it would hide every equal number and short word in
// the run's output, and it can say no more than its few bytes.
const MinDerived = 6

// MinBase64 is the shortest text whose base64 forms are held: a shorter
// one's stable part is a few characters that ordinary base64 (a digest, an
// id) would hold by chance.
const MinBase64 = 6

// Set is a run's secrets. It is a handle: copies share one set, and it
// grows while the run derives values (Derived), safely from any goroutine.
// The zero Set holds nothing and masks nothing.
type Set struct{ *set }

type set struct {
	mu     sync.RWMutex
	texts  map[string]bool // each text held, to add it once
	forms  []string        // every representation of every text, longest first
	wholes map[string]bool // JSON texts of values masked only as a whole
	rep    *strings.Replacer
}

// New is an empty Set that can grow.
func New() Set {
	return Set{&set{texts: map[string]bool{}, wholes: map[string]bool{}}}
}

// Add holds v, a secret input's value: a string or a number as text (at
// any length: the chart said it is secret), a bool as a whole value, an
// object or a list as a whole value and each of its members (Member).
func (s Set) Add(v any) {
	if s.set == nil {
		return
	}
	switch t := v.(type) {
	case nil:
	case string:
		s.addText(t)
		s.addCases(t)
		s.addCores(t)
		s.addPasswords(t)
	case bool:
		s.addWhole(t)
	case map[string]any, []any:
		s.addWhole(t)
		s.members(t)
	default:
		if txt, ok := scalarText(t); ok {
			s.addText(txt)
			s.addNumberTexts(t)
		}
	}
}

// addCases holds a secret's text in upper and in lower case, when at
// least MinDerived bytes: code runbook cannot see into (a stage plugin, a
// tool) that prints a token it upper-cased (`auth failed for token
// HUNTER2SECRET99`), or a hex key in the other case, showed it in the
// clear (TestCaseVariantsOfASecretAreMasked). A shorter text's other case
// is too likely an ordinary word's, and so is a text of letters alone (a
// password `postgres` would mask, and taint, every POSTGRES_USER a tool
// prints): a token or key mixes in digits or signs.
func (s Set) addCases(t string) {
	if len(t) < MinDerived || !strings.ContainsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) }) {
		return
	}
	for _, c := range []string{strings.ToUpper(t), strings.ToLower(t)} {
		if c != t {
			// The text and its escaped forms only, not its base64 and
			// URL forms: every form held costs each masking a pass
			// (Pieces), and a case changed is a text printed, not encoded.
			s.addForms(c, escapedForms(c))
		}
	}
}

// addNumberTexts holds the other texts a number is printed as: Go's %v of
// it as a float64 (7.3914021e+07, what expr's string() gives) and %g.
func (s Set) addNumberTexts(v any) {
	f, err := strconv.ParseFloat(fmt.Sprint(v), 64)
	if err != nil {
		return
	}
	for _, txt := range []string{fmt.Sprint(f), strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'e', -1, 64)} {
		if len(txt) >= MinFragment {
			s.addText(txt)
		}
	}
}

// Derived holds v, a value derived from a secret (an expression that read
// one): its text, when at least MinDerived bytes, so that it is masked as a
// whole wherever it appears, even when it no longer contains the secret
// (`upper(token)`); an object's or list's members each the same way. A
// shorter text is held when it is a piece of a text held, of at least
// MinFragment bytes, as a member is: the parts of split(token, "-") or a
// slice token[0:5] are the secret itself, read in pieces.
func (s Set) Derived(v any) {
	if s.set == nil {
		return
	}
	switch t := v.(type) {
	case string:
		if len(t) >= MinDerived || len(t) >= MinFragment && s.pieceOfHeld(t) {
			s.addText(t)
		}
	case map[string]any:
		for _, e := range t {
			s.Derived(e)
		}
	case []any:
		for _, e := range t {
			s.Derived(e)
		}
	case nil, bool:
	default:
		if txt, ok := scalarText(t); ok && len(txt) >= MinDerived {
			s.addText(txt)
		}
	}
}

// addCores holds the texts a shell prints a secret string as when it
// strips it: without the white space around it (a YAML block scalar's or a
// file's last newline, gone in $(…) and an unquoted $TOKEN) and, of a text
// of several lines (a PEM key), each line so stripped, since `echo $KEY`
// joins them with spaces; each when at least MinFragment bytes.
func (s Set) addCores(t string) {
	if !strings.ContainsAny(t, " \t\r\n\v\f") {
		return
	}
	for _, c := range append(strings.Split(t, "\n"), t) {
		if c = strings.TrimSpace(c); len(c) >= MinFragment && c != t {
			s.addText(c)
		}
	}
}

// addPasswords holds the password a connection string carries, as
// written and percent-decoded, when at least MinFragment bytes: a URI's
// userinfo (postgresql://user:PASSWORD@host/db, any scheme) and a
// password= in a URI's query or a libpq key=value string (password=PW,
// password='a \'quoted\' one'). A tool that refuses the string quotes
// that part alone (psql's `invalid percent-encoded token: "s3c%zzretPW"`),
// and the whole string, held, masks no piece of itself.
func (s Set) addPasswords(t string) {
	var pws []string
	if i := strings.Index(t, "://"); i > 0 {
		authority := t[i+3:]
		if end := strings.IndexAny(authority, "/?#"); end >= 0 {
			authority = authority[:end]
		}
		if at := strings.LastIndex(authority, "@"); at >= 0 {
			if c := strings.Index(authority[:at], ":"); c >= 0 {
				pws = append(pws, authority[c+1:at])
			}
		}
	}
	for _, m := range passwordKey.FindAllStringSubmatch(t, -1) {
		v := m[1]
		if strings.HasPrefix(v, "'") {
			v = strings.NewReplacer(`\'`, "'", `\\`, `\`).Replace(strings.TrimSuffix(v[1:], "'"))
		}
		pws = append(pws, v)
	}
	for _, pw := range pws {
		if len(pw) >= MinFragment {
			s.addText(pw)
		}
		if d, err := url.PathUnescape(pw); err == nil && d != pw && len(d) >= MinFragment {
			s.addText(d)
		}
	}
}

// passwordKey is a password= of a libpq key=value string or a URI's
// query: its value bare (to a space or an &) or in single quotes.
var passwordKey = regexp.MustCompile(`(?:^|[\s?&])password\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&']+)`)

// pieceOfHeld reports whether t is inside a text held.
func (s Set) pieceOfHeld(t string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for held := range s.texts {
		if strings.Contains(held, t) {
			return true
		}
	}
	return false
}

// members holds each string and number inside a secret object or list.
func (s Set) members(v any) {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			s.members(e)
		}
	case []any:
		for _, e := range t {
			s.members(e)
		}
	case string:
		if len(t) >= MinFragment {
			s.addText(t)
			s.addCores(t)
		} else if t != "" {
			s.addWhole(t)
		}
	case nil, bool:
	default:
		if txt, ok := scalarText(t); ok {
			if len(txt) >= MinFragment {
				s.addText(txt)
				s.addNumberTexts(t)
			} else {
				s.addWhole(t)
			}
		}
	}
}

// Empty reports whether the set holds nothing.
func (s Set) Empty() bool {
	if s.set == nil {
		return true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.forms) == 0 && len(s.wholes) == 0
}

// Forms lists every representation of every text held (exact, escaped,
// quoted), longest first: what a stream masker that sees raw bytes (a
// command's output) searches for.
func (s Set) Forms() []string {
	if s.set == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.forms)
}

// Text is t with every secret in it masked, in every representation, and
// a secret cut at t's ends or at a cut mark masked too; a private key's
// material and a password hash are masked by any Set, the zero one too
// (ByForm).
func (s Set) Text(t string) string {
	t = ByForm(t)
	if s.set == nil || t == "" {
		return t
	}
	s.mu.RLock()
	rep, forms := s.rep, s.forms
	s.mu.RUnlock()
	if rep == nil {
		return t
	}
	t = rep.Replace(t)
	return cutPieces(t, forms, true)
}

// Message is Text for an error's message, which quotes the values an
// expression failed on: a quoted text ("…") that is a piece of a secret,
// of MinFragment bytes or more, is masked too, wherever in the secret it
// was cut. An expression that slices a secret and then fails on the
// slice (`token[3:] + 1`) said `with the text "rus-Key-77xq"`, twelve of
// the fifteen bytes of "Walrus-Key-77xq", in the agent's answer, the
// record and the command line's error: the slice was never a value the
// run held, so Text did not know it, and a quote is no cut mark.
func (s Set) Message(t string) string {
	t = s.Text(t)
	if s.set == nil || !strings.Contains(t, `"`) {
		return t
	}
	s.mu.RLock()
	lower := lowered(s.forms)
	s.mu.RUnlock()
	var b strings.Builder
	for {
		open := strings.IndexByte(t, '"')
		if open < 0 {
			break
		}
		end := closingQuote(t, open+1)
		if end < 0 {
			break
		}
		inner := t[open+1 : end]
		b.WriteString(t[:open+1])
		if len(inner) >= MinFragment && inAny(strings.ToLower(inner), lower) {
			b.WriteString(Masked)
		} else {
			b.WriteString(inner)
		}
		b.WriteByte('"')
		t = t[end+1:]
	}
	b.WriteString(t)
	return b.String()
}

// Pieces is t, a text an expression made from a secret (an ask:'s
// question), with every piece of a secret inside it masked: each longest
// run of MinFragment bytes or more that is inside a form of a text held,
// in any case. Text masks a secret whole and a piece at a cut; the
// question "Rotate the key ending " + token[9:] held "y-77xq", and
// upper(token[0:6]) "WALRUS", which reached the person, the record and an
// agent's elicitation form.
func (s Set) Pieces(t string) string {
	t = s.Text(t)
	if s.set == nil || len(t) < MinFragment {
		return t
	}
	s.mu.RLock()
	lower := lowered(s.forms)
	s.mu.RUnlock()
	longest := 0
	for _, f := range lower {
		longest = max(longest, len(f))
	}
	lt := strings.ToLower(t)
	// every MinFragment bytes a form holds: a piece begins with one, so a
	// place whose next MinFragment bytes are none begins no piece, and a
	// long question (a listing of files) is read with one look-up a byte
	grams := map[string]bool{}
	for _, f := range lower {
		for k := 0; k+MinFragment <= len(f); k++ {
			grams[f[k:k+MinFragment]] = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(t); {
		n := 0
		if i+MinFragment > len(t) || !grams[lt[i:i+MinFragment]] {
			b.WriteByte(t[i])
			i++
			continue
		}
		// a piece is no longer than the longest form
		for j := min(len(t), i+longest); j-i >= MinFragment; j-- {
			if inAny(lt[i:j], lower) {
				n = j - i
				break
			}
		}
		if n == 0 {
			b.WriteByte(t[i])
			i++
			continue
		}
		b.WriteString(Masked)
		i += n
	}
	return b.String()
}

// inAny: t is inside one of forms.
func inAny(t string, forms []string) bool {
	for _, f := range forms {
		if strings.Contains(f, t) {
			return true
		}
	}
	return false
}

// closingQuote is the index of the quote that closes a quoted text begun
// before from (a backslash escapes the next byte), or -1.
func closingQuote(t string, from int) int {
	for i := from; i < len(t); i++ {
		switch t[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// lowered is forms in lower case: a piece is matched in any case, since
// upper(token) + 1 quoted the secret in capitals.
func lowered(forms []string) []string {
	out := make([]string, len(forms))
	for k, f := range forms {
		out[k] = strings.ToLower(f)
	}
	return out
}

// holdsText reports whether t shows a secret: a form of a text held
// inside it, or a piece of one at a cut mark. Not a piece at t's own
// ends, which Text masks: a text shown may have been cut there (an
// output's tail), but a value a stage holds is whole, and one that
// merely begins with a secret's last four bytes ("2026-12-06T…" under a
// password ending "2026", the program name restic under one ending
// "-restic") holds nothing of it. As the taint test, such a false match
// made every value read beside it a derived secret.
func (s Set) holdsText(t string) bool {
	if s.set == nil || t == "" {
		return false
	}
	s.mu.RLock()
	rep, forms := s.rep, s.forms
	s.mu.RUnlock()
	if rep == nil {
		return false
	}
	return rep.Replace(t) != t || cutPieces(t, forms, false) != t
}

// Key is an object's key with every secret in it masked: a key that is a
// secret whole (Masked), and every form of a text held inside it. Never a
// cut piece: a key is a short name, and a 4-byte piece would take "used"
// for the end of a derived "… was refused".
func (s Set) Key(k string) string {
	if s.set == nil || k == "" {
		return k
	}
	if s.Whole(k) {
		return Masked
	}
	s.mu.RLock()
	rep := s.rep
	s.mu.RUnlock()
	if rep == nil {
		return k
	}
	return rep.Replace(k)
}

// Holds reports whether v shows a secret: a text inside one of its strings
// (or its number's text, holdsText), or v a whole value held. It is the
// taint test: an expression that read a value that Holds derives a secret
// value.
func (s Set) Holds(v any) bool {
	if s.set == nil {
		return false
	}
	switch t := v.(type) {
	case nil:
		return false
	case string:
		return s.holdsText(t) || s.Whole(t)
	case map[string]any:
		if s.Whole(t) {
			return true
		}
		for k, e := range t {
			// A key shows its text as a value does ({TOKEN: true}).
			if s.Key(k) != k || s.Holds(e) {
				return true
			}
		}
		return false
	case []any:
		if s.Whole(t) {
			return true
		}
		return slices.ContainsFunc(t, s.Holds)
	default:
		if s.Whole(t) {
			return true
		}
		txt, ok := scalarText(t)
		return ok && s.holdsText(txt)
	}
}

// Whole reports whether v, as a whole value, is a secret: its text or its
// JSON text is held.
func (s Set) Whole(v any) bool {
	if s.set == nil {
		return false
	}
	s.mu.RLock()
	none := len(s.wholes) == 0 && len(s.texts) == 0
	s.mu.RUnlock()
	if none {
		return false
	}
	if str, ok := v.(string); ok {
		s.mu.RLock()
		held := s.texts[str]
		s.mu.RUnlock()
		if held {
			return true
		}
	}
	b, err := jsonv.Marshal(v)
	if err != nil {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.wholes[string(b)] || s.texts[string(b)]
}

func (s Set) addWhole(v any) {
	b, err := jsonv.Marshal(v)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.wholes[string(b)] = true
	s.mu.Unlock()
}

func (s Set) addText(t string) { s.addForms(t, forms(t)) }

// addForms holds t as the given forms of it.
func (s Set) addForms(t string, fs []string) {
	if t == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.texts[t] {
		return
	}
	s.texts[t] = true
	for _, f := range fs {
		if !slices.Contains(s.forms, f) {
			s.forms = append(s.forms, f)
		}
	}
	// Longest first: the replacer tries its pairs in order at each place,
	// so "Bearer hunter2" is masked whole before "hunter2" inside it.
	slices.SortStableFunc(s.forms, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(s.forms))
	for _, f := range s.forms {
		pairs = append(pairs, f, Masked)
	}
	s.rep = strings.NewReplacer(pairs...)
}

// forms are the representations of a text on its way out: its escaped
// forms, its base64 forms, and a URL's query's and path's escaping.
func forms(t string) []string {
	out := escapedForms(t)
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, f := range base64Forms(t) {
		add(f)
	}
	// A URL's query or path: an API key with + / = in it, in the request
	// line a plugin's error quotes (GET /v1/status?key=ab%2Bcd%3D%3D).
	add(url.QueryEscape(t))
	add(url.PathEscape(t))
	return out
}

// base64Forms are t's base64 texts: t encoded alone (padded), and, for each
// of the three places t's first byte can fall in a 3-byte group of a longer
// encoded text, the characters that only t's bits decide. Without them a
// plugin's error quoting the Authorization header it sent ("Basic " and
// base64 of `user:TOKEN`) showed the token to anyone who decodes it.
func base64Forms(t string) []string {
	if len(t) < MinBase64 {
		return nil
	}
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(t)))
		for lead := 0; lead < 3; lead++ {
			// Output character j holds bits 6j…6j+5 of the input: t's
			// bits are 8·lead … 8·(lead+len(t)), so the characters wholly
			// inside run from ⌈8·lead/6⌉ to ⌊8·(lead+len(t))/6⌋.
			b := append(make([]byte, lead), t...)
			full := enc.WithPadding(base64.NoPadding).EncodeToString(b)
			from, to := (8*lead+5)/6, 8*(lead+len(t))/6
			out = append(out, full[from:to])
		}
	}
	return out
}

// escapedForms are a text as printed: itself, JSON escaped (with and
// without HTML escaping), Go-quoted (%q, and ASCII-only), each without its
// quotes.
func escapedForms(t string) []string {
	out := []string{t}
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if b, err := json.Marshal(t); err == nil {
		add(unquote(string(b)))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(t) == nil {
		add(unquote(strings.TrimSuffix(buf.String(), "\n")))
	}
	add(unquote(strconv.Quote(t)))
	add(unquote(strconv.QuoteToASCII(t)))
	for _, f := range shellForms(t) {
		add(f)
	}
	return out
}

// shellForms are the texts bash prints t as, quoted for its own reading:
// inside the single quotes of `set -x`, each quote closed, escaped and
// reopened, and printf %q's backslashes before each sign a shell would
// read. A password holding a quote or a space stood in the clear in a
// traced script's stderr, which the record kept: the masker held it only
// as written. None for a text with a control character (bash writes it
// $'…') or with nothing to quote.
//
//	set -x      + mysql --password='it'\''s a pw'
//	printf %q   it\'s\ a\ pw
func shellForms(t string) []string {
	if strings.ContainsFunc(t, unicode.IsControl) {
		return nil
	}
	var out []string
	if strings.Contains(t, "'") {
		out = append(out, strings.ReplaceAll(t, "'", `'\''`))
	}
	var b strings.Builder
	for i, r := range t {
		if strings.ContainsRune(" '\"!$^&*(),<>?;`[]{}|\\", r) || i == 0 && (r == '#' || r == '~') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	if q := b.String(); q != t {
		out = append(out, q)
	}
	return out
}

func unquote(q string) string { return strings.TrimSuffix(strings.TrimPrefix(q, `"`), `"`) }

// cutMarks are how a cut text says it was cut: the narrative's "…", and
// "..." of messages that quote a value cut short.
var cutMarks = []string{"…", "..."}

// cutPieces masks a piece of a form at each boundary of t where a cut may
// have fallen: a prefix ending at a cut mark, a suffix starting after
// one, and, when atEnds, a prefix ending at t's end and a suffix starting
// at its start.
func cutPieces(t string, forms []string, atEnds bool) string {
	if len(t) < MinFragment || len(forms) == 0 {
		return t
	}
	if atEnds && (longestPrefixAt(t, forms, len(t)) == len(t) || longestSuffixAt(t, forms, len(t)) == len(t)) {
		return Masked // the whole text is a piece: a command printed a secret's last bytes
	}
	// The boundaries, as byte offsets: ends where a prefix may stop,
	// starts where a suffix may begin.
	var ends, starts []int
	if atEnds {
		ends, starts = []int{len(t)}, []int{0}
	}
	for _, mark := range cutMarks {
		for i := 0; ; {
			j := strings.Index(t[i:], mark)
			if j < 0 {
				break
			}
			ends = append(ends, i+j)
			starts = append(starts, i+j+len(mark))
			i += j + len(mark)
		}
	}
	type span struct{ from, to int }
	var cuts []span
	for i, end := range ends {
		if n := longestPrefixAt(t[:end], forms, pieceAt(atEnds && i == 0)); n > 0 {
			cuts = append(cuts, span{end - n, end})
		}
	}
	for i, start := range starts {
		if n := longestSuffixAt(t[start:], forms, pieceAt(atEnds && i == 0)); n > 0 {
			cuts = append(cuts, span{start, start + n})
		}
	}
	if len(cuts) == 0 {
		return t
	}
	slices.SortFunc(cuts, func(a, b span) int { return a.from - b.from })
	var b strings.Builder
	at := 0
	for _, c := range cuts {
		if c.from < at { // overlaps the one before: already masked
			if c.to > at {
				at = c.to
			}
			continue
		}
		b.WriteString(t[at:c.from])
		b.WriteString(Masked)
		at = c.to
	}
	b.WriteString(t[at:])
	return b.String()
}

// pieceAt is the shortest piece masked at a boundary: MinEndFragment at
// the text's own ends, MinFragment at a cut mark.
func pieceAt(textEnd bool) int {
	if textEnd {
		return MinEndFragment
	}
	return MinFragment
}

// longestPrefixAt is the length of the longest proper prefix of a form, of
// at least least bytes, that t ends with (0: none).
func longestPrefixAt(t string, forms []string, least int) int {
	best := 0
	for _, f := range forms {
		for n := min(len(f)-1, len(t)); n >= least && n > best; n-- {
			if strings.HasSuffix(t, f[:n]) {
				best = n
				break
			}
		}
	}
	return best
}

// longestSuffixAt is the length of the longest proper suffix of a form, of
// at least least bytes, that t starts with (0: none).
func longestSuffixAt(t string, forms []string, least int) int {
	best := 0
	for _, f := range forms {
		for n := min(len(f)-1, len(t)); n >= least && n > best; n-- {
			if strings.HasPrefix(t, f[len(f)-n:]) {
				best = n
				break
			}
		}
	}
	return best
}

// scalarText is a number's text as JSON writes it.
func scalarText(v any) (string, bool) {
	switch v.(type) {
	case string, bool, nil, map[string]any, []any:
		return "", false
	}
	b, err := jsonv.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(b), true
}

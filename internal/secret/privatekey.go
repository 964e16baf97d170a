package secret

import (
	"bytes"
	"encoding/asn1"
	"regexp"
	"strings"
)

// PrivateKeys is t with the material of every private key in it masked:
// a private key is a secret by its form, whoever said so or not. A chart
// that reads a folder of certificates (`read: {glob: '"/etc/haproxy/certs/*.pem"'}`,
// HAProxy's PEMs hold the certificate and its key in one file), or runs
// `openssl rsa -check -in key.pem` (which prints the key after "RSA key
// ok"), put the key in the scope, the record, `--format json` and
// `runbook explain`, though no input was secret. The armour lines are
// kept, so a rule can still see that a file holds a key
// (`f.content contains "PRIVATE KEY-----"`); the material between them is
// not:
//
//	-----BEGIN PRIVATE KEY-----\nMIIE…\n-----END PRIVATE KEY-----   -----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----
//	"-----BEGIN EC PRIVATE KEY-----\\nMHcC…\\n-----END EC …"         the same inside JSON-escaped text (\\n kept)
//	-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl… (cut, no END)          -----BEGIN OPENSSH PRIVATE KEY-----\n***
//	…Q2xvc2U=\n-----END RSA PRIVATE KEY----- (a tail cut inside)     ***\n-----END RSA PRIVATE KEY-----
//	a.pem:-----BEGIN PRIVATE KEY-----\nb.pem:-----BEGIN …            as it is: no key material follows (grep's lines)
//	Private-Key: (256 bit)\npriv:\n    d7:c2:1a:…\npub:\n    04:93…  Private-Key: (256 bit)\npriv:\n    ***\npub:\n    04:93…
//
// Any label holding PRIVATE KEY is one (RSA, EC, DSA, ENCRYPTED, OPENSSH,
// PGP … BLOCK): an encrypted key is still the key. The last form is
// `openssl pkey -text` (and rsa, ec): its private numbers (priv,
// privateExponent, prime1, prime2, exponent1, exponent2, coefficient,
// private-key) are masked, the public ones (modulus, pub) kept. A
// certificate, a public key and a CSR are kept whole. It is idempotent:
// a text masked once is masked again unchanged, so every road may ask it.
//
// It is called where a run's bytes become text: a command's captured
// streams and their tails (MaskStream), a read: file's content and name
// (the runbook package's one road of read bytes into the scope), and
// every text a Set masks (Set.Text), so no key reaches the scope, the
// record or any output. A key a Go stage reads itself and writes into the
// scope is not seen: in a run with no secret input no value shown is
// masked (record.Masker.Value costs nothing then).
func PrivateKeys(t string) string {
	if !strings.Contains(t, "PRIVATE KEY") && !strings.Contains(t, "rivate-Key") && !strings.Contains(t, "rivate-key") && !strings.Contains(t, "OpenVPN ") {
		return t
	}
	return privateNumbers(armoured(t))
}

// keyArmour is a PEM armour line of a private key: BEGIN or END, and the
// label that pairs them. OpenVPN's shared keys are armoured so too: the
// static key of tls-auth, tls-crypt and secret (`openvpn --genkey secret
// ta.key`, a .ovpn profile's inline <tls-crypt> block), and tls-crypt-v2's
// client and server keys; whoever holds one may speak to the server's TLS
// port (TestOpenVPNStaticKeysAreMaskedByForm).
var keyArmour = regexp.MustCompile(`-----(BEGIN|END) ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V1|OpenVPN tls-crypt-v2 (?:client|server) key)-----`)

// armoured masks the material of each key between its armour: between a
// BEGIN and its END when all of it is key material (keyish), the run of
// key material after a BEGIN with no END (a text cut inside a key), and
// the run before an END with no BEGIN (a tail that begins inside one).
// Text between armour lines that is not key material is no key: `grep -rn
// "BEGIN.*PRIVATE KEY" /etc` prints a BEGIN line per file, and masking to
// the next END, or to the end, would drop every file's line but the first
// in silence, and a chart counting keys left lying about would count one.
func armoured(t string) string {
	var b strings.Builder
	at := 0 // t[:at] is written
	for at < len(t) {
		m := keyArmour.FindStringSubmatchIndex(t[at:])
		if m == nil {
			break
		}
		start, end := at+m[0], at+m[1]
		kind, label := t[at+m[2]:at+m[3]], t[at+m[4]:at+m[5]]
		if kind == "END" { // a tail that began inside this key
			before, own := lastLine(t[at:start])
			from := keyishFrom(before)
			b.WriteString(before[:from])
			b.WriteString(masked(before[from:], at == 0 && from == 0, true))
			b.WriteString(own)
			b.WriteString(t[start:end])
			at = end
			continue
		}
		// The run of key lines after the BEGIN, then the line after it:
		// the key's END there (after grep's "a.pem:", or on the BEGIN's
		// own line where `echo $KEY` joined them) closes it. Each is read
		// as far as it goes, never to the text's end, so a text of many
		// BEGIN lines (grep's) is read once.
		b.WriteString(t[at:end])
		rest := t[end:]
		n := keyishTo(rest)
		k := n + len(lineEnds.FindString(rest[n:]))
		line := rest[k:]
		if e := keyLineEnd.FindStringIndex(line); e != nil {
			line = line[:e[0]]
		}
		close := strings.Index(line, "-----END "+label+"-----")
		switch {
		case close >= 0 && k == 0 && keyish(line[:close]):
			b.WriteString(masked(line[:close], false, true))
			at = end + close
		case close >= 0 && k == 0:
			b.WriteString(line[:close])
			at = end + close
		case close >= 0:
			b.WriteString(masked(rest[:k], false, true))
			b.WriteString(line[:close])
			at = end + k + close
		default:
			// Cut inside the key, or no key's body (grep's lines): its
			// key material masked, and the rest read on for armour.
			b.WriteString(masked(rest[:n], false, false))
			at = end + n
		}
	}
	b.WriteString(t[at:])
	return b.String()
}

// keyLineEnd is a line end as a text holds it: itself, or JSON- or
// Go-escaped.
var keyLineEnd = regexp.MustCompile(`(?:\\r\\n|\\n|\\r|\r\n|\n|\r)+`)

// keyish reports whether a line is key material: base64, a PEM header
// (Proc-Type: 4,ENCRYPTED, DEK-Info: AES-128-CBC,5D3A…), such lines joined
// by spaces as `echo $KEY` prints them, or either after the file name grep
// puts before a line (a.pem-MIIE… under grep -A); never a piece of an
// armour line ("-----"), nor a line of words with other signs ("writing
// RSA key done."). A line cut with "…" or "..." is judged without its
// mark.
func keyish(line string) bool {
	line = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(line, "…"), "..."))
	switch {
	case strings.Contains(line, "-----"):
		return false
	case line == "", pemHeader.MatchString(line):
		return true
	}
	if at := strings.LastIndexAny(line, "-:"); at >= 0 && !strings.ContainsAny(line[:at], " \t") {
		line = line[at+1:] // grep's FILE- or FILE:LINE: before it
		if line == "" {
			return false
		}
	}
	for _, c := range line {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == ' ' || c == '\t') {
			return false
		}
	}
	return true
}

// pemHeader is a header line of a PEM body (RFC 1421, and OpenPGP's).
var pemHeader = regexp.MustCompile(`^(?:Proc-Type|DEK-Info|Version|Comment|Hash|Charset|MessageID): `)

// keyishTo is how far from its start body is key material: the end of
// its last key-ish line before the first that is not (len(body) when all
// are). It reads body a line at a time and stops at that line.
func keyishTo(body string) int {
	to, at := 0, 0
	for {
		lineEnd, next := len(body), len(body)
		if loc := keyLineEnd.FindStringIndex(body[at:]); loc != nil {
			lineEnd, next = at+loc[0], at+loc[1]
		}
		line := body[at:lineEnd]
		if !keyish(line) {
			return to
		}
		if strings.TrimSpace(line) != "" {
			to = lineEnd
		}
		if next == len(body) {
			return len(body)
		}
		at = next
	}
}

// lineEnds is the line ends a text begins with.
var lineEnds = regexp.MustCompile(`^(?:\\r\\n|\\n|\\r|\r\n|\n|\r)+`)

// lastLine splits a text that an armour line follows into its lines and
// the start of the armour's own line (grep's "a.pem:" before an END),
// which is no key material; a text of one line (a key `echo $KEY` joined)
// is all lines.
func lastLine(text string) (lines, own string) {
	ends := keyLineEnd.FindAllStringIndex(text, -1)
	if len(ends) == 0 {
		return text, ""
	}
	k := ends[len(ends)-1][1]
	return text[:k], text[k:]
}

// keyishFrom is where the key material body ends with begins: the start
// of the run of key-ish lines after its last line that is not.
func keyishFrom(body string) int {
	from, at := 0, 0
	for _, end := range append(keyLineEnd.FindAllStringIndex(body, -1), []int{len(body), len(body)}) {
		if !keyish(body[at:end[0]]) {
			from = end[1]
		}
		at = end[1]
	}
	return from
}

// masked is a key's body as shown: Masked between the line ends it had.
// head says the body began the text (no line end of the armour before
// it), tail that an END line follows it. Nothing but line ends is shown
// as it is.
func masked(body string, head, tail bool) string {
	if strings.TrimSpace(keyLineEnd.ReplaceAllString(body, "")) == "" {
		return body
	}
	lead, trail := "", ""
	if !head {
		lead = leadingSep.FindString(body)
		body = body[len(lead):]
	}
	if tail {
		trail = trailingSep.FindString(body)
	}
	return lead + Masked + trail
}

// leadingSep and trailingSep are the line end a key's body begins and
// ends with, kept around Masked.
var (
	leadingSep  = regexp.MustCompile(`^(?:\\r\\n|\\n|\r\n|\n| )`)
	trailingSep = regexp.MustCompile(`(?:\\r\\n|\\n|\r\n|\n| )$`)
)

// privateLabel is a line of `openssl pkey -text` naming a private number;
// the indented lines of hex bytes after it are that number.
var privateNumber = regexp.MustCompile(`(?m)^([ \t]*(?:privateExponent|prime1|prime2|exponent1|exponent2|coefficient|priv|private-key):[ \t]*\r?\n)((?:[ \t]+[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2})*:?[ \t]*(?:\r?\n|$))+)`)

// privateNumbers masks the private numbers of a key printed as text.
func privateNumbers(t string) string {
	if !strings.Contains(t, "rivate-Key") && !strings.Contains(t, "rivate-key") {
		return t
	}
	return privateNumber.ReplaceAllStringFunc(t, func(m string) string {
		sub := privateNumber.FindStringSubmatch(m)
		hex := sub[2]
		indent := hex[:len(hex)-len(strings.TrimLeft(hex, " \t"))]
		end := ""
		if strings.HasSuffix(hex, "\n") {
			end = "\n"
		}
		return sub[1] + indent + Masked + end
	})
}

// PrivateKeyDER reports whether b is, whole, a private key or a store of
// keys in DER, binary ASN.1: an OpenSSL key file written with -outform
// DER, a PKCS#12 store (.p12, .pfx). Its bytes are no text, so they reach
// a run as a text that is not UTF-8, which the run quoted byte by byte
// where it said so: an EC key's 32 private bytes begin at its eighth, and
// a chart that read a folder of key files (`read: {glob: …}`) showed them
// all in the standing line and the record (wave-pki). The caller masks
// the whole of it.
//
// It reads the outer SEQUENCE and its first two elements, the forms keys
// take and certificates, CRLs, CSRs and public keys do not (their first
// element is a SEQUENCE, and a public key's second a BIT STRING):
//
//	SEQUENCE { INTEGER version, … }            PKCS#1 RSA and DSA keys, PKCS#8, SEC1 EC keys, PKCS#12
//	SEQUENCE { SEQUENCE alg, OCTET STRING … }  an encrypted PKCS#8 key
func PrivateKeyDER(b []byte) bool {
	var outer asn1.RawValue
	rest, err := asn1.Unmarshal(b, &outer)
	if err != nil || len(bytes.TrimRight(rest, "\r\n")) > 0 || outer.Class != asn1.ClassUniversal || outer.Tag != asn1.TagSequence || !outer.IsCompound {
		return false
	}
	var first, second asn1.RawValue
	inner, err := asn1.Unmarshal(outer.Bytes, &first)
	if err != nil || first.Class != asn1.ClassUniversal {
		return false
	}
	if _, err := asn1.Unmarshal(inner, &second); err != nil || second.Class != asn1.ClassUniversal {
		return false
	}
	switch {
	case first.Tag == asn1.TagInteger:
		return true
	case first.Tag == asn1.TagSequence && second.Tag == asn1.TagOctetString:
		return true
	}
	return false
}

package chart

import (
	"path/filepath"
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// FirstCertificateOnly is what a shell: script pipes every certificate of
// a keystore from into `openssl x509` ("openssl pkcs12", "keytool -list
// -rfc"), "" when it does not: x509 reads the first certificate of its
// input and passes over the rest in silence, and `openssl pkcs12
// -nokeys` prints each certificate of the store, every alias's and each
// certificate of a key entry's chain, in the store's order. `openssl
// pkcs12 -in web.p12 -nokeys -passin env:SP | openssl x509 -enddate
// -noout` read web-current's notAfter (2036) and said OK, Consistent,
// over a store whose second alias, web-old, expired a year ago
// (record.ItemFirstCertificate, testdata/wave-jks/p12-enddate). The
// chart cannot know from x509's output whether there was a second.
//
//	openssl pkcs12 -in ks.p12 -nokeys -passin env:SP | openssl x509 -enddate -noout    noted
//	keytool -list -rfc -keystore ks.p12 -storepass:env SP | openssl x509 -enddate      noted
//	openssl pkcs12 … | openssl storeutl -certs -text /dev/stdin                        not noted (it reads them all)
//	openssl x509 -in leaf.pem -enddate -noout                                          not noted
func (e *ExecSpec) FirstCertificateOnly() string {
	if e == nil || e.Shell == "" {
		return ""
	}
	f, err := parseBash(e.Shell)
	if err != nil {
		return ""
	}
	said := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		b, ok := n.(*syntax.BinaryCmd)
		if !ok || said != "" || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
			return said == ""
		}
		from := ""
		for _, argv := range pipelineCommands(b) {
			switch {
			case from != "" && len(argv) > 1 && filepath.Base(argv[0]) == "openssl" && argv[1] == "x509":
				said = from
				return false
			case from == "":
				from = printsEveryCertificate(argv)
			}
		}
		return false // its inner pipes were read with it
	})
	return said
}

// pipelineCommands is each command of a pipeline, left to right, as its
// literal words ("" for a word bash expands); a stage of it that is no
// simple command is nil.
func pipelineCommands(b *syntax.BinaryCmd) [][]string {
	var out [][]string
	var add func(st *syntax.Stmt)
	add = func(st *syntax.Stmt) {
		if inner, ok := st.Cmd.(*syntax.BinaryCmd); ok && (inner.Op == syntax.Pipe || inner.Op == syntax.PipeAll) {
			add(inner.X)
			add(inner.Y)
			return
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			out = append(out, nil)
			return
		}
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i] = literalWord(w)
		}
		out = append(out, words)
	}
	add(b.X)
	add(b.Y)
	return out
}

// printsEveryCertificate names argv when it prints every certificate of
// a keystore in PEM: openssl pkcs12 (without -nocerts), keytool -list
// with -rfc. "" otherwise.
func printsEveryCertificate(argv []string) string {
	if len(argv) < 2 {
		return ""
	}
	switch filepath.Base(argv[0]) {
	case "openssl":
		if argv[1] == "pkcs12" && !slices.Contains(argv, "-nocerts") && !slices.Contains(argv, "-export") {
			return "openssl pkcs12"
		}
	case "keytool":
		if (slices.Contains(argv, "-list") || slices.Contains(argv, "--list")) && slices.Contains(argv, "-rfc") {
			return "keytool -list -rfc"
		}
	}
	return ""
}

// FirstCertificateNote is what `runbook plan` says of such a stage
// (FirstCertificateOnly), "" of another: every run that ends as no
// failure files its output as not checked, so the author learns it before
// the first run.
func (e *ExecSpec) FirstCertificateNote() string {
	from := e.FirstCertificateOnly()
	if from == "" {
		return ""
	}
	return "it pipes every certificate of a keystore from " + from + " into openssl x509, which reads the first alone and passes over the rest in silence, so a run's output is one certificate's, not checked as the store's (first-certificate: Not sure); read them all with keytool -list -v, whose every 'Valid from: … until: …' line is one certificate's"
}

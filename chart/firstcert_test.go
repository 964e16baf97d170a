package chart

import "testing"

// TestKeystorePipedToX509IsNotedInPlan: a shell: pipeline handing every
// certificate of a keystore to openssl x509 (which reads the first alone)
// is named, so plan says it before a run; one that reads them all, or
// x509 over one file, is not.
func TestKeystorePipedToX509IsNotedInPlan(t *testing.T) {
	t.Parallel()
	for script, want := range map[string]string{
		`openssl pkcs12 -in "$KS" -nokeys -passin env:SP | openssl x509 -enddate -noout`:       "openssl pkcs12",
		`set -e; openssl pkcs12 -in a.p12 -nokeys |& /usr/bin/openssl x509 -noout -enddate`:    "openssl pkcs12",
		`keytool -list -rfc -keystore ks.jks -storepass:env SP | openssl x509 -noout -enddate`: "keytool -list -rfc",
		`openssl pkcs12 -in a.p12 -nokeys | openssl storeutl -certs -text /dev/stdin`:          "",
		`openssl pkcs12 -in a.p12 -nocerts -nodes | openssl x509 -noout`:                       "",
		`openssl x509 -in leaf.pem -enddate -noout | cut -d= -f2`:                              "",
	} {
		e := &ExecSpec{Shell: script}
		if got := e.FirstCertificateOnly(); got != want {
			t.Errorf("%s: FirstCertificateOnly = %q, want %q", script, got, want)
		}
		if (e.FirstCertificateNote() != "") != (want != "") {
			t.Errorf("%s: note %q", script, e.FirstCertificateNote())
		}
	}
}

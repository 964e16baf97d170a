package runbook_test

import (
	"strings"
	"testing"

	"github.com/openrunbook/runbook/plugins/assessment"
	"github.com/openrunbook/runbook/record"
)

// TestKeystorePipedToX509ReadsTheFirstCertificateAlone: `openssl pkcs12
// -in web.p12 -nokeys -passin env:SP | openssl x509 -enddate -noout` read
// the first certificate of the store, valid to 2036, and the chart said
// ok, Nagios OK, Consistent, over a store whose second alias had expired
// a year before: x509 passes over every certificate after the first in
// silence. Such a stage's output is not checked (a first-certificate
// item), so the run is Not sure; the certificates read by a tool that
// reads them all, or one file's certificate read alone, are judged as
// before. openssl here is a shell function, so the test runs anywhere.
func TestKeystorePipedToX509ReadsTheFirstCertificateAlone(t *testing.T) {
	fake := `openssl() { if [ "$1" = x509 ]; then cat >/dev/null; echo "notAfter=Dec  4 18:34:13 2036 GMT"; else cat >/dev/null; echo "notAfter=Dec  4 18:34:13 2036 GMT"; fi; }; `
	chart := func(script string) string {
		return `version: 1
runbook: p12
result: {kind: verdict/cert}
stages:
  - id: end
    exec:
      shell: '` + fake + script + `'
      parse: text
  - id: mark
    verdict: {subject: '"web.p12"', verdict: '"ok"'}
`
	}
	for _, tc := range []struct {
		name, script, from string
	}{
		{"openssl pkcs12 into x509", `echo | openssl pkcs12 -in web.p12 -nokeys -passin env:SP | openssl x509 -enddate -noout`, "openssl pkcs12"},
		{"keytool -list -rfc into x509", `keytool() { echo; }; keytool -list -rfc -keystore web.p12 | openssl x509 -enddate -noout`, "keytool -list -rfc"},
		{"pkcs12 into storeutl, which reads them all", `echo | openssl pkcs12 -in web.p12 -nokeys | openssl storeutl -certs -text /dev/stdin`, ""},
		{"one PEM file's certificate", `openssl x509 -in leaf.pem -enddate -noout`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := exec(t, parse(t, chart(tc.script)), nil)
			found := ""
			for _, e := range rec.Coverage {
				for _, it := range e.NotChecked {
					if it.Kind == record.ItemFirstCertificate {
						found = it.Why
					}
				}
			}
			notSure := rec.Assessment.Standing == assessment.NotSure
			switch {
			case tc.from != "" && (!strings.HasPrefix(found, tc.from+" prints every certificate") || !notSure):
				t.Errorf("item %q, standing %s (%s); want a first-certificate item naming %s, Not sure", found, rec.Assessment.Standing, rec.Assessment.Line, tc.from)
			case tc.from == "" && (found != "" || notSure):
				t.Errorf("item %q, standing %s (%s); want none", found, rec.Assessment.Standing, rec.Assessment.Line)
			}
		})
	}
}

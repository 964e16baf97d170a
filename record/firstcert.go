package record

import (
	"fmt"

	"github.com/openrunbook/runbook/plugins/coverage"
)

// ItemFirstCertificate is the kind of the not-checked item filed for a
// shell: stage that ended as no failure and pipes every certificate of a
// keystore into `openssl x509` (chart.ExecSpec.FirstCertificateOnly):
// x509 reads the first and passes over the rest in silence, so what the
// stage printed is one certificate's, not the store's. `openssl pkcs12
// -nokeys … | openssl x509 -enddate -noout` said OK, Consistent, over a
// store whose second alias had expired a year before
// (runbook TestKeystorePipedToX509ReadsTheFirstCertificateAlone,
// testdata/wave-jks/p12-enddate).
const ItemFirstCertificate = "first-certificate"

// FirstCertificateEntry is the ledger's entry for such a stage: from is
// the command that printed the store's certificates.
func FirstCertificateEntry(path, from string) coverage.Entry {
	return outputEntry(path, fmt.Sprintf("%s prints every certificate of the keystore (each alias's, and each certificate of a key entry's chain), and openssl x509 reads the first of them and passes over any after it in silence, so what it printed is one certificate's, not the store's; read them all: keytool -list -v, whose every 'Valid from: … until: …' line is one certificate's, or openssl pkcs12 -nokeys -out FILE, then openssl storeutl -noout -text -certs FILE", from), ItemFirstCertificate)
}

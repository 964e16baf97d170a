package chart

import "testing"

// TestKeytoolPasswordInArgvIsNoted: `[keytool, -list, -v, -keystore,
// ks.p12, -storepass, changeit]` loaded and ran Consistent, the store's
// password in argv, where ps shows it, and in the record, unmasked: a
// literal is no secret the run knows (wave-jks' design question). A plan
// note and a run's warning now say so and name -storepass:env; the :env
// and :file forms, which no argv shows, are not noted.
func TestKeytoolPasswordInArgvIsNoted(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		e    ExecSpec
		want bool
	}{
		{ExecSpec{Command: []string{"keytool", "-list", "-v", "-keystore", "ks.p12", "-storepass", "changeit"}}, true},
		{ExecSpec{Command: []string{"/usr/bin/keytool", "-list", "-keystore", "ks.jks", "-storepass", "${pw}", "-keypass", "x"}}, true},
		{ExecSpec{Command: []string{"keytool", "-importkeystore", "-srckeystore", "a.jks", "-srcstorepass", "a", "-destkeystore", "b.p12", "-deststorepass:env", "B"}}, true},
		{ExecSpec{Shell: `keytool -list -v -keystore "$KS" -storepass "$P" | grep until`}, true},
		{ExecSpec{Command: []string{"keytool", "-list", "-keystore", "ks.p12", "-storepass:env", "SP"}}, false},
		{ExecSpec{Command: []string{"keytool", "-list", "-keystore", "ks.p12", "-storepass:file", "/run/secrets/sp"}}, false},
		{ExecSpec{Shell: `keytool -list -keystore ks.p12 -storepass:env SP`}, false},
		{ExecSpec{Command: []string{"openssl", "pkcs12", "-in", "ks.p12", "-passin", "env:SP"}}, false},
	} {
		if got := tc.e.KeytoolPasswordInArgv() != ""; got != tc.want {
			t.Errorf("%v %q: noted %v, want %v", tc.e.Command, tc.e.Shell, got, tc.want)
		}
		if warned := contains(tc.e.RunWarnings(), tc.e.KeytoolPasswordInArgv()); tc.want && !warned {
			t.Errorf("%v %q: a run does not warn of it", tc.e.Command, tc.e.Shell)
		}
	}
}

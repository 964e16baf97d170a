package chart

import (
	"path/filepath"
	"slices"
)

// CheckendEndDateAlone is the note for an exec that runs `openssl x509
// -checkend N` and prints neither -startdate nor -dates beside it ("" when
// it does not): -checkend judges the certificate's end date alone, and
// over a certificate not yet valid (its notBefore still to come) it prints
// `Certificate will not expire` and exits 0, the answer a chart reads as
// valid. `openssl s_client … | openssl x509 -noout -checkend 1209600`
// under `exitCodes: {0: valid, 1: expiring}` said `OK valid`, Consistent,
// over an endpoint serving a certificate valid from next week
// (testdata/wave-scan/tls-checkend). Where the script hands it what
// s_client printed without -verify_return_error, the note says too that
// s_client exits 0 over a certificate its verification refused (expired,
// not yet valid, another host's name, self-signed, its chain missing an
// intermediate), so nothing of the run judged those.
//
//	shell: openssl s_client … | openssl x509 -noout -checkend "$S"        noted
//	[openssl, x509, -in, c.pem, -noout, -checkend, "86400"]                noted
//	[openssl, x509, -in, c.pem, -noout, -startdate, -checkend, "86400"]    not noted
func (e *ExecSpec) CheckendEndDateAlone() string {
	if e.noteOfEachCommand(checkendAlone) == "" {
		return ""
	}
	note := "it runs openssl x509 -checkend, which judges the certificate's end date alone: over a certificate not yet valid (its notBefore still to come) it prints \"Certificate will not expire\" and exits 0, so its answer of valid would be said of a certificate no client accepts yet; print -startdate beside it (openssl x509 -noout -startdate -enddate) and judge notBefore too"
	if e.noteOfEachCommand(sClientUnverified) != "" {
		note += "; and s_client without -verify_return_error exits 0 and hands on a certificate its verification refused (expired, another host's name, self-signed, its chain missing an intermediate: its `Verify return code:` line says which), so -checkend's answer says nothing of those: give s_client -verify_return_error (with -verify_hostname NAME and -CAfile), or judge its Verify return code"
	}
	return note
}

// checkendAlone is "checkend" when argv is openssl x509 with -checkend and
// without -startdate or -dates, "" otherwise.
func checkendAlone(argv []string) string {
	if len(argv) < 2 || filepath.Base(argv[0]) != "openssl" || argv[1] != "x509" || !slices.Contains(argv, "-checkend") {
		return ""
	}
	if slices.Contains(argv, "-startdate") || slices.Contains(argv, "-dates") {
		return ""
	}
	return "checkend"
}

// sClientUnverified is "s_client" when argv is openssl s_client without
// -verify_return_error, "" otherwise.
func sClientUnverified(argv []string) string {
	if len(argv) < 2 || filepath.Base(argv[0]) != "openssl" || argv[1] != "s_client" || slices.Contains(argv, "-verify_return_error") {
		return ""
	}
	return "s_client"
}

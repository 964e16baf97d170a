package rules

import (
	"testing"
)

// TestMaskedSecretIsNoEquality: a default-password audit read an app's
// .env with kv and asked `env.DB_PASSWORD in ["changeme", …]`; the value
// reached the scope masked (DB_PASSWORD says it is a secret), "***" was
// no default password, and the check said ok, Consistent, over
// DB_PASSWORD=changeme. A comparison of a masked value with a text it may
// have been is an error now, and so is a text operator's no over it
// (startsWith, endsWith, contains, matches); with the empty text (no
// masked value is empty) it is judged.
func TestMaskedSecretIsNoEquality(t *testing.T) {
	t.Parallel()
	env := mapEnv{"e": map[string]any{"DB_PASSWORD": "***", "DEBUG": "false"}}
	const why = `is a value runbook masked as a secret`
	for _, tc := range []struct {
		src     string
		err     string // "" for no error
		matched bool
	}{
		{`e.DB_PASSWORD in ["changeme", "password"]`, why, false},
		{`e.DB_PASSWORD == "changeme"`, why, false},
		{`e.DB_PASSWORD != "changeme"`, why, false},
		{`e.DB_PASSWORD startsWith "change"`, why, false},
		{`e.DB_PASSWORD endsWith "me"`, why, false},
		{`e.DB_PASSWORD matches "^change"`, why, false},
		{`e.DB_PASSWORD contains "change"`, why, false},
		{`e.DB_PASSWORD matches ".+"`, "", true},
		{`e.DEBUG contains "***"`, "", false},
		{`e.DB_PASSWORD != ""`, "", true},
		{`e.DB_PASSWORD == "-----BEGIN CERTIFICATE-----"`, "", false},
		{`e.DB_PASSWORD startsWith "-----BEGIN"`, "", false},
		{`e.DB_PASSWORD matches "^-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----$"`, "", false},
		{`e.DB_PASSWORD == "***"`, "", true},
		{`e.DEBUG == "false"`, "", true},
	} {
		evalWants(t, env, tc.src, tc.err, tc.matched)
	}
}

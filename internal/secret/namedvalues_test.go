package secret

import (
	"strings"
	"testing"
)

// FuzzNamedValuesLineByLine: the forms that mask a value by its name run
// on each line of a long text that could name a secret, for speed; each
// must mask it exactly as the whole text was masked, whatever the text.
func FuzzNamedValuesLineByLine(f *testing.F) {
	for _, s := range []string{
		"DB_PASSWORD=hunter2pw\nLD_PRELOAD=/x.so",
		"export VAULT_TOKEN=hvs.CAESIJabcdef\n--db-password=hunter2pw\n",
		"password = s3cretpw\nkeyfile = /etc/k.pem\r\n",
		"mysqld --db-password=hunter2pw --port=3306\n  --api-key=abcdefgh12\n",
		"auth=ok token_len=3 user=alice\nSECRET_KEY=zzzzzzzzzz\n\n",
		"\"Env\": [\n\"DB_PASSWORD=s3cretPW\",\n\"HOME=/root\"],\n\"CreateCommand\": [\"podman\", \"--env=API_TOKEN=abcdefgh123\"]",
		"[PATH=/bin DB_PASSWORD=s3cretPW HOME=/root]\n",
	} {
		f.Add(s)
	}
	whole := func(t string) string { return ArgvOptions(SpacedAssignments(EnvAssignments(t))) }
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // NUL records are read whole
		}
		long := s
		for len(long) < 600 {
			long += "\n" + s + "\nrequest id=42 path=/api status=200"
		}
		if got, want := namedValues(long), whole(long); got != want {
			t.Fatalf("line by line:\n%q\nwhole:\n%q", got, want)
		}
	})
}

// BenchmarkByFormOfALog: a 19 KB log of key=value lines, none naming a
// secret, took 3.7 ms to mask by form (5 MB/s), every assignment matched
// to ask its name.
func BenchmarkByFormOfALog(b *testing.B) {
	t := strings.Repeat("2026-12-08T00:12:01 app[123]: request id=42 path=/api/v1/items status=200 dur=12ms user=alice\n", 200)
	b.SetBytes(int64(len(t)))
	for b.Loop() {
		_ = ByForm(t)
	}
}

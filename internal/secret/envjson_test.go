package secret

import "testing"

// TestContainerInspectEnvIsMaskedByForm: a chart asking podman (or
// docker) whether each expected container runs and is healthy reads
// `podman container inspect NAME`, whose Config.Env lists the
// container's environment as JSON strings ("DB_PASSWORD=s3cretPW"), and
// the record kept DB_PASSWORD's and POSTGRES_PASSWORD's values ten times
// each, though the run was given no secret: the assignment was no record
// of its own (EnvAssignments), but a JSON string. Such a string's value
// is masked by the name's form, its name and quotes kept, however the
// JSON is laid out (inspect's indented array, `{{json .Config.Env}}`'s
// one line) and whatever its value escapes, and in its CreateCommand,
// where `--env=API_TOKEN=…` stood whole; and so is one in the list
// `{{.Config.Env}}` prints, Go's [A=b DB_PASSWORD=… HOME=/root], whose
// values run to the next blank or the list's "]".
func TestContainerInspectEnvIsMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"\"Env\": [\n  \"APP_MODE=prod\",\n  \"DB_PASSWORD=s3cretPW\",\n  \"PATH=/usr/local/sbin:/usr/bin\",\n":        "\"Env\": [\n  \"APP_MODE=prod\",\n  \"DB_PASSWORD=***\",\n  \"PATH=/usr/local/sbin:/usr/bin\",\n",
		`["APP_MODE=prod","POSTGRES_PASSWORD=hunter2pg","HOME=/root"]`:                                                 `["APP_MODE=prod","POSTGRES_PASSWORD=***","HOME=/root"]`,
		`["DB_PASSWORD=pa\"ss word\\", "X=1"]`:                                                                         `["DB_PASSWORD=***", "X=1"]`,
		`["AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG"]`:                                                              `["AWS_SECRET_ACCESS_KEY=***"]`,
		`["TLS_KEY_FILE=/run/secrets/tls.key","PGPASSWORD=root","AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"]`:             `["TLS_KEY_FILE=/run/secrets/tls.key","PGPASSWORD=root","AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"]`,
		"[APP_MODE=prod DB_PASSWORD=s3cretPW PATH=/usr/bin container=podman POSTGRES_PASSWORD=hunter2pg HOME=/root]\n": "[APP_MODE=prod DB_PASSWORD=*** PATH=/usr/bin container=podman POSTGRES_PASSWORD=*** HOME=/root]\n",
		"[API_TOKEN=abcdefgh]\n":                       "[API_TOKEN=***]\n",
		"[HOME=/root SORT_KEY=2 PASS=/etc/app/pass]\n": "[HOME=/root SORT_KEY=2 PASS=/etc/app/pass]\n",
		"\"CreateCommand\": [\n    \"podman\",\n    \"--env=API_TOKEN=abcdefgh123\",\n    \"-e\",\n    \"MYSQL_ROOT_PASSWORD=pa ss word\",\n": "\"CreateCommand\": [\n    \"podman\",\n    \"--env=API_TOKEN=***\",\n    \"-e\",\n    \"MYSQL_ROOT_PASSWORD=***\",\n",
	})
}

// TestUnitEnvironmentIsMaskedByForm: `systemctl show -p Environment
// app` prints a unit's environment on one line, `Environment=LANG=C
// DB_PASSWORD=…`, as does a unit file's Environment= directive
// (`systemctl cat app`, quotes and all); the name Environment is no
// secret's, and DB_PASSWORD's value stood whole in the record, where a
// container's environment in podman inspect was masked.
func TestUnitEnvironmentIsMaskedByForm(t *testing.T) {
	maskedByForm(t, map[string]string{
		"Environment=LANG=C DB_PASSWORD=hunter22x\n":                   "Environment=LANG=C DB_PASSWORD=***\n",
		"Environment=DB_PASSWORD=hunter22x LANG=C\n":                   "Environment=DB_PASSWORD=*** LANG=C\n",
		"Environment=\"DB_PASSWORD=hunter 22x\" LANG=C\n":              "Environment=\"DB_PASSWORD=***\" LANG=C\n",
		"[Service]\nEnvironment=API_TOKEN=abcdefgh123\nExecStart=/x\n": "[Service]\nEnvironment=API_TOKEN=***\nExecStart=/x\n",
		"Environment=LANG=C PASS=/etc/app/pass SORT_KEY=2\n":           "Environment=LANG=C PASS=/etc/app/pass SORT_KEY=2\n",
		"Environment=\n": "Environment=\n",
	})
}

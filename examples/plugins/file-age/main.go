// Command runbook-plugin-file-age is an example stage plugin: it checks a
// file's age against a maximum age. A file that does not exist is an
// ABSENCE (it looked and found nothing), not a failure; a file modified
// after now has no age, and the call fails, saying so.
//
//	args {path: "/var/log/syslog", maxAge: "24h"}
//	  → {"path": …, "exists": true, "ageSeconds": 5400, "maxAgeSeconds": 86400, "tooOld": false, "modified": "…"}
//	args {path: "/nope"}
//	  → {"af_absent": true, "looked_for": "file /nope", "checked": ["/"]}
package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/openrunbook/runbook/plugins/sdk"
)

// Version is the plugin's version.
const Version = "1.0.0"

type fileAge struct{ now func() time.Time }

func (fileAge) Describe() sdk.Description {
	return sdk.Description{
		Name:        "file-age",
		Version:     Version,
		Description: "Checks a file's age (since its last modification) against a maximum age; a missing file is declared absent",
		Args: []sdk.Arg{
			{Name: "path", Type: "string", Required: true, Description: "the file to check"},
			{Name: "maxAge", Type: "duration", Default: "24h", HasDefault: true, Description: "the oldest the file may be, as a Go duration"},
		},
	}
}

func (f fileAge) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	path, ok := req.Args["path"].(string)
	if !ok || path == "" {
		return sdk.Response{}, errors.New("path: want a non-empty string")
	}
	maxAge, err := duration(req.Args["maxAge"])
	if err != nil {
		return sdk.Response{}, fmt.Errorf("maxAge: %w", err)
	}
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.Response{Result: sdk.Absent("file "+path, filepath.Dir(path))}, nil
	}
	if err != nil {
		return sdk.Response{}, err
	}
	now := f.now()
	age := now.Sub(fi.ModTime())
	if age < 0 {
		// A stamp touched while the host's clock ran ahead, or copied with
		// its mtime from a host whose clock did: it read as fresh, with a
		// negative age, until its date came, however long the job had not
		// run. No age can be said of it.
		return sdk.Response{}, fmt.Errorf("%s was modified at %s, %s after now (%s): the host's clock or the file's stamp is wrong, so its age is not known; check the clock (chronyc tracking, timedatectl) and touch the file again once it is right",
			path, fi.ModTime().UTC().Format(time.RFC3339), (-age).Round(time.Second), now.UTC().Format(time.RFC3339))
	}
	return sdk.Response{Result: map[string]any{
		"path":          path,
		"exists":        true,
		"ageSeconds":    int(age.Seconds()),
		"maxAgeSeconds": int(maxAge.Seconds()),
		"tooOld":        age > maxAge,
		"modified":      fi.ModTime().UTC().Format(time.RFC3339),
	}}, nil
}

func duration(v any) (time.Duration, error) {
	switch t := v.(type) {
	case string:
		return time.ParseDuration(t)
	case int:
		return time.Duration(t) * time.Second, nil
	case float64:
		return time.Duration(t * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("want a duration such as \"24h\", got %v", v)
}

func main() { sdk.Serve(fileAge{now: time.Now}) }

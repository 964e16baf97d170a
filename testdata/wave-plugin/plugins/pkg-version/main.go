// Command runbook-plugin-pkg-version asks dpkg-query for an installed
// package's version. It runs code (RunsCode), so each call files a script
// row from the Facts of the process it ran.
//
//	args {package: "openssl"} → {"package": "openssl", "installed": true, "version": "3.0.15-1~deb12u1"}
//	args {package: "nope"}    → {"package": "nope", "installed": false}   (dpkg-query exit 1)
package main

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"strings"

	"github.com/openrunbook/runbook/plugins/sdk"
)

const Version = "1.0.0"

type pkg struct{}

func (pkg) Describe() sdk.Description {
	return sdk.Description{
		Name:        "pkg-version",
		Version:     Version,
		Description: "Asks dpkg-query for a package's installed version",
		RunsCode:    true,
		Args: []sdk.Arg{
			{Name: "package", Type: "string", Required: true, Description: "the Debian package name"},
		},
	}
}

func (pkg) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	name, _ := req.Args["package"].(string)
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "dpkg-query", "-W", "-f", "${db:Status-Status} ${Version}", name)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return sdk.Response{}, err // it did not run
	}
	res := map[string]any{"package": name, "installed": false}
	if f := strings.Fields(out.String()); len(f) == 2 && f[0] == "installed" {
		res["installed"], res["version"] = true, f[1]
	}
	return sdk.Response{Result: res, Facts: sdk.Ended(cmd.ProcessState)}, nil
}

func main() { sdk.Serve(pkg{}) }

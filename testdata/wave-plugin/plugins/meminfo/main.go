// Command runbook-plugin-meminfo reads /proc/meminfo (or another file of its
// form) and returns its fields as numbers of bytes, with the percent used.
//
//	args {}  → {"MemTotal": 16367372288, "MemAvailable": 9000000000, "usedPct": 45.0, ...}
package main

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"

	"github.com/openrunbook/runbook/plugins/sdk"
)

const Version = "0.3.0"

type meminfo struct{}

func (meminfo) Describe() sdk.Description {
	return sdk.Description{
		Name:        "meminfo",
		Version:     Version,
		Description: "Reads /proc/meminfo; returns each field in bytes and usedPct",
		Args: []sdk.Arg{
			{Name: "path", Type: "string", Default: "/proc/meminfo", HasDefault: true, Description: "the meminfo file"},
		},
	}
}

func (meminfo) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	path, _ := req.Args["path"].(string)
	f, err := os.Open(path)
	if err != nil {
		return sdk.Response{}, err
	}
	defer f.Close()
	out := map[string]any{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		fs := strings.Fields(v)
		if len(fs) == 0 {
			continue
		}
		n, err := strconv.ParseUint(fs[0], 10, 64)
		if err != nil {
			continue
		}
		if len(fs) > 1 && fs[1] == "kB" {
			n *= 1024
		}
		out[k] = n
	}
	total, _ := out["MemTotal"].(uint64)
	avail, _ := out["MemAvailable"].(uint64)
	out["usedPct"] = 100 * (1 - float64(avail)/float64(total))
	return sdk.Response{Result: out}, nil
}

func main() { sdk.Serve(meminfo{}) }

// Command runbook-plugin-inventory reads a JSON inventory file (a list of
// hosts, each with a name, an address, tags and labels) and returns the hosts
// of one group, as a chart's foreach reads them.
//
//	args {path: "hosts.json", group: "web"}
//	  → {"hosts": [{"name": "web1", "addr": "10.0.0.1", "port": 22,
//	       "tags": ["nginx"], "labels": {"dc": "fra", "owner": null}}], "count": 1}
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openrunbook/runbook/plugins/sdk"
)

const Version = "1.0.0"

type inventory struct{}

func (inventory) Describe() sdk.Description {
	return sdk.Description{
		Name:        "inventory",
		Version:     Version,
		Description: "Lists the hosts of one group from a JSON inventory file",
		Args: []sdk.Arg{
			{Name: "path", Type: "string", Required: true, Description: "the inventory file (JSON: {\"hosts\": [...]})"},
			{Name: "group", Type: "string", Default: "all", HasDefault: true, Description: "the group whose hosts to list; all lists every host"},
		},
	}
}

type host struct {
	Name   string         `json:"name"`
	Addr   string         `json:"addr"`
	Port   int            `json:"port"`
	Groups []string       `json:"groups"`
	Tags   []string       `json:"tags"`
	Labels map[string]any `json:"labels"`
}

func (inventory) Run(ctx context.Context, req sdk.Request) (sdk.Response, error) {
	path, _ := req.Args["path"].(string)
	group, _ := req.Args["group"].(string)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return sdk.Response{Result: sdk.Absent("inventory file "+path, filepath.Dir(path))}, nil
	}
	if err != nil {
		return sdk.Response{}, err
	}
	var inv struct {
		Hosts []host `json:"hosts"`
	}
	if err := json.Unmarshal(b, &inv); err != nil {
		return sdk.Response{}, fmt.Errorf("%s: %w", path, err)
	}
	hosts := []any{}
	for _, h := range inv.Hosts {
		if group != "all" && !contains(h.Groups, group) {
			continue
		}
		hosts = append(hosts, map[string]any{
			"name": h.Name, "addr": h.Addr, "port": h.Port,
			"tags": h.Tags, "labels": h.Labels,
		})
	}
	return sdk.Response{Result: map[string]any{"hosts": hosts, "count": len(hosts)}}, nil
}

func contains(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

func main() { sdk.Serve(inventory{}) }

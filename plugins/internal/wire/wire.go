// Package wire is the one boundary between the generated protocol types
// (plugins/internal/pb) and the Go-native ones (package plugins): the
// go-plugin handshake and plugin sets, the gRPC servers a plugin runs and
// the gRPC clients the host calls. Nothing outside plugins/ sees pb.
package wire

import (
	"encoding/json"
	"fmt"

	goplugin "github.com/hashicorp/go-plugin"

	"github.com/openrunbook/runbook/internal/jsonv"
	"github.com/openrunbook/runbook/plugins"
)

// Handshake is the go-plugin handshake: a cookie that tells a plugin binary
// it was started by runbook (and not by a person at a shell), and the
// protocol version.
var Handshake = goplugin.HandshakeConfig{
	ProtocolVersion:  plugins.ProtocolVersion,
	MagicCookieKey:   "RUNBOOK_PLUGIN",
	MagicCookieValue: "b7d1c7e2-runbook-stage-plugin",
}

// EnvHostPID carries the host's pid to the plugin, whose parent watch
// compares os.Getppid against it.
const EnvHostPID = "RUNBOOK_PLUGIN_HOST_PID"

// The names of the two kinds in a plugin set.
const (
	KindStage   = "stage"
	KindHonesty = "honesty"
)

// Sets is the versioned plugin sets a host offers (both kinds, every
// protocol version it speaks).
func Sets() map[int]goplugin.PluginSet {
	return map[int]goplugin.PluginSet{
		1: {KindStage: &StagePlugin{}, KindHonesty: &HonestyPlugin{}},
	}
}

// ServeSets is the versioned plugin sets a plugin serves: only the kinds it
// implements (a nil one is left out).
func ServeSets(st plugins.Stage, h plugins.Honesty) map[int]goplugin.PluginSet {
	set := goplugin.PluginSet{}
	if st != nil {
		set[KindStage] = &StagePlugin{Impl: st}
	}
	if h != nil {
		set[KindHonesty] = &HonestyPlugin{Impl: h}
	}
	return map[int]goplugin.PluginSet{plugins.ProtocolVersion: set}
}

// Encode is a value's JSON text.
func Encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode JSON: %w", err)
	}
	return b, nil
}

// Decode reads JSON text as a JSON-shaped Go value (jsonv.DecodePlain: a whole
// number that fits as int, any other number as float64; empty input nil).
func Decode(b []byte) (any, error) { return jsonv.DecodePlain(b) }

// DecodeObject is Decode for a JSON object (empty input: an empty map).
func DecodeObject(b []byte) (map[string]any, error) {
	v, err := Decode(b)
	if err != nil {
		return nil, err
	}
	switch m := v.(type) {
	case nil:
		return map[string]any{}, nil
	case map[string]any:
		return m, nil
	}
	return nil, fmt.Errorf("decode JSON: want an object, got %T", v)
}

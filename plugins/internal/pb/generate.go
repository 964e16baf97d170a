// Package pb is the generated Go code of plugins/proto/runbook/v1. It stays
// internal: plugins/host and plugins/sdk convert it to Go-native types at one
// boundary (plugins/internal/wire). Regenerate with `go generate ./plugins/...`
// using the pinned tools named in docs/PLUGINS.md (protoc-gen-go v1.36.6,
// protoc-gen-go-grpc v1.3.0).
package pb

//go:generate protoc -I ../../proto --go_out=. --go_opt=module=github.com/openrunbook/runbook/plugins/internal/pb --go-grpc_out=. --go-grpc_opt=module=github.com/openrunbook/runbook/plugins/internal/pb runbook/v1/plugin.proto

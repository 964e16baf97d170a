module github.com/openrunbook/runbook

go 1.26

require (
	github.com/dominikbraun/graph v0.23.0 // indirect
	github.com/expr-lang/expr v1.17.8 // indirect
	github.com/sourcegraph/conc v0.3.0 // indirect
)

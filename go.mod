module github.com/openrunbook/runbook

go 1.26

require (
	github.com/dominikbraun/graph v0.23.0
	github.com/expr-lang/expr v1.17.8
	github.com/sourcegraph/conc v0.3.0
)

require (
	go.uber.org/atomic v1.7.0 // indirect
	go.uber.org/multierr v1.9.0 // indirect
)

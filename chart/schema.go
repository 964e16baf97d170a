package chart

import (
	_ "embed" // the chart schema
	"slices"
)

//go:embed chart.schema.json
var chartSchema []byte

// ChartSchema returns the JSON Schema (draft 2020-12) of chart.yaml: every
// key, every stage kind (one of them per stage), every enumeration. Editors
// and CI can validate a chart with it after converting the YAML to JSON.
//
// The schema is the shape only. Load checks more than a schema can say —
// expressions compile, rules name declared branches and reach every one,
// loops jump back, ids are unique in their chart, mounted charts exist and
// do not mount themselves — so a chart the schema accepts may still be
// refused by Load, never the other way round.
//
// Each call returns a fresh copy.
func ChartSchema() []byte { return slices.Clone(chartSchema) }

package chart

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

func compileChartSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ChartSchema()))
	if err != nil {
		t.Fatalf("chart.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("chart.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("chart.schema.json")
	if err != nil {
		t.Fatalf("chart.schema.json does not compile: %v", err)
	}
	return sch
}

func chartAsJSON(t *testing.T, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: YAML → JSON: %v", path, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return inst
}

// TestSchemaAcceptsGoodCharts: every example chart validates against the
// embedded schema.
func TestSchemaAcceptsGoodCharts(t *testing.T) {
	t.Parallel()
	sch := compileChartSchema(t)
	files, _ := filepath.Glob("testdata/load/good/*.yaml")
	sub, _ := filepath.Glob("testdata/load/good/*/*.yaml")
	files = append(files, sub...)
	if len(files) == 0 {
		t.Fatal("no good charts")
	}
	for _, f := range files {
		if err := sch.Validate(chartAsJSON(t, f)); err != nil {
			t.Errorf("%s does not validate:\n%v", f, err)
		}
	}
}

// TestSchemaRefusesShapes: refusals that are a matter of shape are refused
// by the schema too.
func TestSchemaRefusesShapes(t *testing.T) {
	t.Parallel()
	sch := compileChartSchema(t)
	for _, name := range []string{
		"version-2", "version-missing", "stages-empty", "kind-two", "kind-none", "kind-typo",
		"exec-both", "foreach-no-maxbranches", "foreach-as-index", "retry-zero", "maxrows-bad",
		"maxrows-fraction", "input-bad-type", "input-default-type", "ask-bad-type", "honesty-unknown",
		"bad-sha256", "filter-bad-op", "branches-without-decide", "decide-no-default",
		"id-slash", "typo-keys", "typo-maxbranch", "bad-duration", "stage-not-map",
		"select-unreachable", "verdict-no-column", "unknown-far",
	} {
		f := filepath.Join("../testdata/bad", name+".yaml")
		if err := sch.Validate(chartAsJSON(t, f)); err == nil {
			t.Errorf("%s validates against the schema; want a refusal", f)
		}
	}
}

func TestChartSchemaIsJSON(t *testing.T) {
	t.Parallel()
	var v map[string]any
	if err := json.Unmarshal(ChartSchema(), &v); err != nil {
		t.Fatal(err)
	}
	if v["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", v["$schema"])
	}
}

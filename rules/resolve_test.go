package rules

import (
	"testing"
)

type inner struct {
	Replicas int `json:"replicas"`
	Name     string
	hidden   int
}

type Embedded struct {
	Zone string `json:"zone"`
}

type outer struct {
	Volume *inner  `json:"volume"`
	Items  []inner `json:"items"`
	Labels map[string]string
	ByID   map[int]string
	Nil    *inner
	*Embedded
}

func TestResolve(t *testing.T) {
	t.Parallel()
	o := &outer{
		Volume:   &inner{Replicas: 2, Name: "v0", hidden: 1},
		Items:    []inner{{Name: "a"}, {Name: "b"}},
		Labels:   map[string]string{"app": "db", "a.b": "dotted"},
		ByID:     map[int]string{7: "seven"},
		Embedded: &Embedded{Zone: "eu"},
	}
	env := mapEnv{
		"volume":   map[string]any{"replicas": 2, "name": "v0", "tags": []any{"x", map[string]any{"k": "v"}}},
		"items":    []any{map[string]any{"name": "first"}, map[string]any{"name": "second"}},
		"obj":      o,
		"null":     nil,
		"typedNil": (*inner)(nil),
		"strs":     map[string][]string{"a": {"p", "q"}},
		"num":      5,
	}
	tests := []struct {
		path    string
		want    any
		present bool
	}{
		{"volume.replicas", 2, true},
		{"volume.tags.0", "x", true},
		{"volume.tags[1].k", "v", true},
		{"volume.tags[2]", nil, false},
		{"volume.missing", nil, false},
		{"volume.replicas.deeper", nil, false},
		{"items.0.name", "first", true},
		{"items[1].name", "second", true},
		{"items[1][\"name\"]", "second", true},
		{"items.-1.name", nil, false},
		{"items.x", nil, false},
		{"items.99999999999999999999", nil, false},
		{"missing", nil, false},
		{"missing.x", nil, false},
		{"null", nil, true},
		{"null.x", nil, false},
		{"typedNil", nil, true},
		{"typedNil.Name", nil, false},
		{"num", 5, true},
		{"num.x", nil, false},
		{"obj.volume.replicas", 2, true}, // json tag on pointer field, then json tag
		{"obj.Volume.Replicas", 2, true}, // field names
		{"obj.Volume.Name", "v0", true},
		{"obj.Volume.hidden", nil, false}, // unexported
		{"obj.Items.1.Name", "b", true},
		{"obj.Items[5]", nil, false},
		{"obj.Labels.app", "db", true},
		{`obj.Labels["a.b"]`, "dotted", true},
		{"obj.Labels.a.b", nil, false},
		{"obj.ByID.7", "seven", true},
		{"obj.ByID.x", nil, false},
		{"obj.Nil", nil, true},
		{"obj.Nil.Name", nil, false},
		{"obj.zone", "eu", true}, // promoted field, by json tag
		{"obj.Zone", "eu", true},
		{"strs.a.1", "q", true},
		{"", nil, false},
		{"volume.", nil, false},
		{"volume..replicas", nil, false},
		{"items[0", nil, false},
		{"items[a]", nil, false},
		{"items[0]x", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			got, ok := Resolve(env, tc.path)
			if ok != tc.present || !Equal(got, tc.want) {
				t.Fatalf("Resolve(%q) = %#v, %v; want %#v, %v", tc.path, got, ok, tc.want, tc.present)
			}
		})
	}
}

func TestResolveEmbeddedNilPointer(t *testing.T) {
	t.Parallel()
	env := mapEnv{"obj": outer{}}
	if v, ok := Resolve(env, "obj.zone"); ok {
		t.Fatalf("through a nil embedded pointer: got %v, present", v)
	}
	if _, ok := Resolve(nil, "x"); ok {
		t.Fatal("nil env: present")
	}
}

func TestResolveReadsTopLevelOnce(t *testing.T) {
	t.Parallel()
	env := newCountEnv(map[string]any{"a": map[string]any{"b": map[string]any{"c": 1}}})
	if v, ok := Resolve(env, "a.b.c"); !ok || v != 1 {
		t.Fatalf("got %v %v", v, ok)
	}
	if len(env.gets) != 1 || env.gets["a"] != 1 {
		t.Fatalf("reads = %v, want a once", env.gets)
	}
}

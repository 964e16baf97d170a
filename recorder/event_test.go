package recorder

import (
	"encoding/json"
	"testing"
)

func TestKindText(t *testing.T) {
	t.Parallel()
	for k := RunStart; k <= Truncated; k++ {
		text, err := k.MarshalText()
		if err != nil || string(text) != k.String() {
			t.Fatalf("%d: MarshalText = %q, %v", k, text, err)
		}
		back, err := ParseKind(string(text))
		if err != nil || back != k {
			t.Fatalf("ParseKind(%q) = %v, %v", text, back, err)
		}
	}
	if _, err := ParseKind("stage.begin"); err == nil {
		t.Error("unknown name parsed")
	}
	if _, err := ParseKind("unknown"); err == nil {
		t.Error(`"unknown" parsed`)
	}
	if _, err := Kind(0).MarshalText(); err == nil {
		t.Error("kind 0 marshalled")
	}
	data, err := json.Marshal(map[string]Kind{"event": Fork})
	if err != nil || string(data) != `{"event":"flow.fork"}` {
		t.Errorf("json = %s, %v", data, err)
	}
	var k Kind
	if err := json.Unmarshal([]byte(`"flow.join"`), &k); err != nil || k != Join {
		t.Errorf("unmarshal = %v, %v", k, err)
	}
}

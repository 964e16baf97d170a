package label

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzReadRow: ReadRow never panics, and a row it accepts re-encodes to
// JSON that reads back equal — and agrees with the rule that filed it.
func FuzzReadRow(f *testing.F) {
	f.Add([]byte(`{"path":"collect","settlement":"returned","facts":{"ok":false,"exitCode":7},"label":"completed-with-failure","exitCode":7,"words":"completed with failure, exit 7"}`))
	f.Add([]byte(`{"path":"a","settlement":"threw","label":"outcome-unknown"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		row, err := ReadRow(data)
		if err != nil {
			return
		}
		if !Fits(row.Label, row.ExitCode) {
			t.Fatalf("accepted a row that does not fit: %s", show(row))
		}
		if want := Of(row.Settlement, row.Facts); want.Label != row.Label {
			t.Fatalf("accepted label %q where Of files %q", row.Label, want.Label)
		}
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatalf("accepted row does not encode: %v", err)
		}
		back, err := ReadRow(b)
		if err != nil {
			t.Fatalf("re-encoded row refused: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(row, back) {
			t.Fatalf("row changed over a round trip:\n%s\n%s", show(row), show(back))
		}
	})
}

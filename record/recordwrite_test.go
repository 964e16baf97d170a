package record_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openrunbook/runbook/decide"
	"github.com/openrunbook/runbook/flow"
	"github.com/openrunbook/runbook/plugins/label"
	"github.com/openrunbook/runbook/record"
	"github.com/openrunbook/runbook/recorder"
	"github.com/openrunbook/runbook/rules"
	"github.com/openrunbook/runbook/runbook"
)

// assertWritesAsMarshalIndent writes rec with WriteFile and holds the
// file to json.MarshalIndent's bytes and a newline, the format every
// golden record was written in, closed with the seal (sealed).
func assertWritesAsMarshalIndent(t *testing.T, name string, rec *record.RunRecord) []byte {
	t.Helper()
	want, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatalf("%s: MarshalIndent: %v", name, err)
	}
	want = sealed(want) // and closed with its seal
	path := filepath.Join(t.TempDir(), "rec.json")
	if err := record.WriteFile(path, rec); err != nil {
		t.Fatalf("%s: WriteFile: %v", name, err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("%s: WriteFile's bytes differ from MarshalIndent's at byte %d (got %d bytes, want %d):\ngot  …%s…\nwant …%s…",
			name, i, len(got), len(want), got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
	}
	return got
}

// sealed is MarshalIndent's bytes of a record as WriteFile writes them:
// closed with the seal (seal.go), the digest of every byte before it,
// which are MarshalIndent's but its closing "\n}".
func sealed(indented []byte) []byte {
	prefix := indented[:len(indented)-2]
	sum := sha256.Sum256(prefix)
	return append(slices.Clone(prefix), ",\n  \"recordDigest\": \"sha256:"+hex.EncodeToString(sum[:])+"\"\n}\n"...)
}

// execRecord runs a chart in-process and returns its saved record.
func execRecord(t testing.TB, chart string, inputs map[string]any) *record.RunRecord {
	t.Helper()
	rb, err := runbook.Open(chart)
	if err != nil {
		t.Fatal(err)
	}
	res, err := rb.Exec(context.Background(), inputs)
	if err != nil {
		t.Fatal(err)
	}
	return res.RunRecord()
}

// TestWriteFileBytesEqualMarshalIndent: the streamed record file is the
// bytes the whole-document encoding wrote, for every record under the
// repository's testdata that parses, for records runs write (a wide
// foreach, a paused run with its checkpoint), and for made-up records at
// the edges of encoding/json's rules (nil against empty, omitempty, HTML
// characters, which MarshalIndent escapes, unicode, line separators).
func TestWriteFileBytesEqualMarshalIndent(t *testing.T) {
	t.Parallel()
	t.Run("testdata", func(t *testing.T) {
		n := 0
		err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".json") || !strings.Contains(path, "testdata") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rec, _, err := record.ParseRecord(data)
			if err != nil {
				return nil // not a record
			}
			n++
			assertWritesAsMarshalIndent(t, path, rec)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < 2 { // testdata/records holds two version 1 records
			t.Fatalf("only %d records found under testdata: the walk is looking in the wrong place", n)
		}
	})
	t.Run("runs", func(t *testing.T) {
		wide := execRecord(t, "../testdata/bench/wide-foreach.yaml", map[string]any{"width": 2000})
		if n := len(wide.Log.Commits()); n < 2000 {
			t.Fatalf("the 2000-item foreach committed %d times", n)
		}
		assertWritesAsMarshalIndent(t, "wide-foreach 2000", wide)
		assertWritesAsMarshalIndent(t, "fleet (paused)", execRecord(t, "../runbook/testdata/explain/fleet.yaml", map[string]any{"host": "h1"}))
		for _, ex := range []string{"approval", "disk", "logscan"} {
			chart := "../examples/" + ex + "/chart.yaml"
			assertWritesAsMarshalIndent(t, chart, execRecord(t, chart, nil))
		}
	})
	t.Run("compact decisions", func(t *testing.T) {
		// A flow run that no recorder watches keeps its filter decisions
		// compact: the streamed file holds their evidence, as
		// MarshalIndent (through the log's MarshalJSON) writes it, and as
		// the same run building its evidence as it went would.
		chart := compactChart(t)
		lazy, err := chart.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !lazy.Log.Commits()[1].Compact() {
			t.Fatal("the decision was not kept compact: this subtest tests nothing")
		}
		eager, err := chart.Run(context.Background(), flow.WithRecorders(recorder.NewNarrative()))
		if err != nil {
			t.Fatal(err)
		}
		got := assertWritesAsMarshalIndent(t, "compact", &record.RunRecord{RecordVersion: 2, Log: lazy.Log})
		want, _ := json.MarshalIndent(&record.RunRecord{RecordVersion: 2, Log: eager.Log}, "", "  ")
		if !bytes.Equal(got, sealed(want)) || !bytes.Contains(got, []byte(`"conditions"`)) {
			t.Fatalf("the compact log was written without its evidence:\n%s", got)
		}
	})
	t.Run("made up", func(t *testing.T) {
		html := `<script>alert("x&y")</script> é ü 日本 ` + "\u2028\u2029 \x01 \t"
		tests := map[string]*record.RunRecord{
			"zero":        {},
			"nil result":  {RecordVersion: 2},
			"empty parts": {RecordVersion: 2, Result: &record.Record{State: map[string]any{}, Decisions: []record.Decision{}, Scripts: []label.Row{}, Narrative: []string{}}, Answers: []record.AnswerRecord{}, Log: flow.NewLog(map[string]any{}, []flow.Commit{}), CheckpointSecrets: []string{}},
			"html and unicode": {RecordVersion: 2, Chart: html, ChartSHA256: html,
				Result: &record.Record{Runbook: html, Status: "completed", State: map[string]any{html: html, "<k>": []any{html, 1.5, nil, map[string]any{"&": true}}, "n": 1e21, "z": []any{},
					// a number no float64 holds, kept as its digits (jsonv.Decoded):
					// written as a number, as encoding/json writes it, never "…"
					"wide": json.Number("12345678901234567890"), "huge": []any{json.Number("1e999")}},
					Narrative: []string{html, ""}, Warnings: []string{html},
					Verdicts: &record.VerdictSet{Rows: []record.Row{{Keys: []string{"b", "a<"}, Values: map[string]any{"b": html, "a<": 2}}}, Meanings: map[string]string{"<": ">"}}},
				Log:               flow.NewLog(map[string]any{"x": html}, []flow.Commit{{Path: html, Reads: []flow.Read{{Key: html, Value: html}}, Writes: []flow.Write{{Key: "k", Value: []any{html}, From: []string{}}}}}),
				CheckpointSecrets: []string{html}, CheckpointDigest: html},
		}
		for name, rec := range tests {
			assertWritesAsMarshalIndent(t, name, rec)
		}
	})
	t.Run("random values", func(t *testing.T) {
		// A cheap property: values of any shape, wherever the record holds
		// an any, are written as MarshalIndent writes them.
		r := rand.New(rand.NewPCG(18, 18))
		for i := range 200 {
			rec := &record.RunRecord{RecordVersion: 2,
				Result: &record.Record{State: randomMap(r, 3), Inputs: record.InputsRecord{Given: randomMap(r, 2)}},
				Log:    flow.NewLog(randomMap(r, 2), []flow.Commit{{Index: i, Path: randomString(r), Reads: []flow.Read{{Key: randomString(r), Value: randomValue(r, 3)}}}}),
			}
			if r.IntN(3) == 0 {
				rec.Result = nil
			}
			assertWritesAsMarshalIndent(t, "random", rec)
		}
	})
}

func randomString(r *rand.Rand) string {
	const alphabet = "ab<>&\"\\é日\u2028\x00 \n"
	rs := []rune(alphabet)
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteRune(rs[r.IntN(len(rs))])
	}
	return b.String()
}

func randomMap(r *rand.Rand, depth int) map[string]any {
	switch r.IntN(4) {
	case 0:
		return nil
	case 1:
		return map[string]any{}
	}
	m := map[string]any{}
	for range r.IntN(5) {
		m[randomString(r)] = randomValue(r, depth-1)
	}
	return m
}

func randomValue(r *rand.Rand, depth int) any {
	k := r.IntN(8)
	if depth <= 0 {
		k %= 4
	}
	switch k {
	case 0:
		return nil
	case 1:
		return randomString(r)
	case 2:
		// Around each edge of encoding/json's float forms: 'f' within
		// [1e-6, 1e21), exponents outside, a negative zero, ints.
		floats := []any{r.NormFloat64() * 1e6, 1e-6, 9.99e-7, 1e21, 9.99e20, -1e-300, 1.5e300, math.Copysign(0, -1), 0.0, 3, int64(-7), uint8(255), float32(0.1)}
		return floats[r.IntN(len(floats))]
	case 3:
		return r.IntN(2) == 0
	case 4, 5:
		if r.IntN(4) == 0 {
			return []any{}
		}
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return l
	}
	return randomMap(r, depth)
}

// compactChart is a seed and a decider over filter rules.
func compactChart(t *testing.T) *flow.Chart {
	c, err := flow.New("compact").
		Stage("seed", func(ctx context.Context, s *flow.Scope) error {
			s.Set("used", 91)
			s.Set("state", "degraded")
			return nil
		}).
		Decide("posture", []decide.Rule{
			{When: rules.MustFilter(rules.Where("used", rules.OpGt, 95)), Then: "full", Label: "Nearly full"},
			{When: rules.MustFilter(rules.Where("used", rules.OpGt, 80), rules.Where("state", rules.OpEq, "degraded")), Then: "warn", Label: "Filling, degraded"},
		}, decide.Default{Branch: "ok", Label: "fine"}, []flow.Branch{{Name: "full"}, {Name: "warn"}, {Name: "ok"}}).
		Build()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

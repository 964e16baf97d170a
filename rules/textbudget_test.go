package rules

import (
	"errors"
	"testing"
	"time"
)

func TestTextBudgetStopsAConcatenationBomb(t *testing.T) {
	e := MustCompile(`reduce(1..100000, #acc + "xxxxxxxxxx", "")`)
	done := make(chan error, 1)
	go func() {
		_, _, err := e.Value(mapEnv{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTextBudget) && (err == nil || err.Error() == "") {
			t.Fatalf("err = %v, want the text budget", err)
		}
	case <-time.After(30 * time.Second): // generous: unbounded, it ran for about 40 s
		t.Fatal("the concatenation was not bounded")
	}
}

func TestPlusStillAddsAndConcatenates(t *testing.T) {
	for src, want := range map[string]any{
		`1 + 2`:               3,
		`1.5 + 1`:             2.5,
		`"a" + "b"`:           "ab",
		`name + "!"`:          "db-1!",
		`n + 1 > 2 && n >= 2`: true,
	} {
		got, _, err := MustCompile(src).Value(mapEnv{"name": "db-1", "n": 2})
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if !Equal(got, want) {
			t.Errorf("%s = %#v, want %#v", src, got, want)
		}
	}
	if _, _, err := MustCompile(`"a" + 1`).Value(mapEnv{}); err == nil {
		t.Error(`"a" + 1 gave no error`)
	}
}

package codec_test

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/openrunbook/runbook/temporal/codec"
)

func newCodec(t testing.TB, keys ...[]byte) *codec.Codec {
	t.Helper()
	c, err := codec.New(keys)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestReadKeyFile: a key file made as the docs say reads; several keys
// read in order (the first encrypts); a wrong length, bad base64, an
// empty file and a missing one are refused in words that name the file
// and the line, never the key's text.
func TestReadKeyFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, b := codec.NewKey(), codec.NewKey()
	enc := base64.StdEncoding.EncodeToString
	short := enc(make([]byte, 16))
	tests := []struct {
		name, body string
		want       [][]byte
		err        []string
	}{
		{"one key", enc(a) + "\n", [][]byte{a}, nil},
		{"rotated", "# new first\n" + enc(b) + "\n\n" + enc(a) + "\n", [][]byte{b, a}, nil},
		{"short", short + "\n", nil, []string{"line 1 is a key of 16 bytes, want 32"}},
		{"not base64", "not a key!\n", nil, []string{"line 1 is not base64"}},
		{"second line bad", enc(a) + "\n" + enc(a)[:20] + "\n", nil, []string{"line 2"}},
		{"empty", "\n# nothing\n", nil, []string{"no key in it"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".key")
			if err := os.WriteFile(p, []byte(tc.body), 0o600); err != nil {
				t.Fatal(err)
			}
			keys, err := codec.ReadKeyFile(p)
			if tc.err == nil {
				if err != nil || len(keys) != len(tc.want) {
					t.Fatalf("keys %d, err %v; want %d keys", len(keys), err, len(tc.want))
				}
				for i := range keys {
					if !bytes.Equal(keys[i], tc.want[i]) {
						t.Errorf("key %d differs", i+1)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("read %d keys, want refused", len(keys))
			}
			for _, w := range append(tc.err, p) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err %q, want it to say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), short) || strings.Contains(err.Error(), enc(a)[:20]) {
				t.Errorf("err %q shows the key's text", err)
			}
		})
	}
	_, err := codec.ReadKeyFile(filepath.Join(dir, "missing.key"))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "missing.key")) {
		t.Errorf("a missing file: err %v, want its path named", err)
	}
}

// TestCodecRotation: a payload encrypted with key B decodes with keys
// [A, B] (a worker given the new key first and the old after it), to the
// payload it was; keys [A] alone refuse it naming the key it wants and
// the keys it holds; an altered payload is refused; a payload no codec
// encrypted passes as it is.
func TestCodecRotation(t *testing.T) {
	t.Parallel()
	a, b := codec.NewKey(), codec.NewKey()
	plain := &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte("json/plain")}, Data: []byte(`{"token":"s3cr3t"}`)}
	enc, err := newCodec(t, b).Encode([]*commonpb.Payload{plain})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(enc[0].Data, []byte("s3cr3t")) || string(enc[0].Metadata["encryption-key-id"]) != codec.KeyID(b) {
		t.Fatalf("encoded %+v: want ciphertext named by key B's id", enc[0])
	}
	dec, err := newCodec(t, a, b).Decode(enc)
	if err != nil || !proto.Equal(dec[0], plain) {
		t.Fatalf("decoded with [A, B]: %v, %v; want the payload back", dec, err)
	}
	_, err = newCodec(t, a).Decode(enc)
	if err == nil || !strings.Contains(err.Error(), codec.KeyID(b)) || !strings.Contains(err.Error(), codec.KeyID(a)) {
		t.Errorf("decoded with [A] only: err %v, want key B's id wanted and A's held", err)
	}
	altered := proto.Clone(enc[0]).(*commonpb.Payload)
	altered.Data[len(altered.Data)-1] ^= 1
	if _, err := newCodec(t, b).Decode([]*commonpb.Payload{altered}); err == nil || !strings.Contains(err.Error(), "does not decrypt") {
		t.Errorf("an altered payload: err %v, want refused", err)
	}
	if dec, err := newCodec(t, a).Decode([]*commonpb.Payload{plain}); err != nil || dec[0] != plain {
		t.Errorf("a plain payload: %v, %v; want it passed as it is", dec, err)
	}
	if _, err := codec.New([][]byte{make([]byte, 16)}); err == nil {
		t.Error("a 16-byte key was taken")
	}
}

// TestKeylessCodecSaysItHasNoKey: the codec of a process given no key
// encodes nothing, passes a plain payload, and refuses an encrypted one
// naming the key it wants and that it was given none (a worker started
// without --codec-key failed such a run with the SDK's "payload encoding
// is not supported").
func TestKeylessCodecSaysItHasNoKey(t *testing.T) {
	t.Parallel()
	a := codec.NewKey()
	plain := &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte("json/plain")}, Data: []byte(`{"n":1}`)}
	k := codec.Keyless()
	if enc, err := k.Encode([]*commonpb.Payload{plain}); err != nil || enc[0] != plain {
		t.Fatalf("keyless Encode: %v, %v; want the payload as it is", enc, err)
	}
	if dec, err := k.Decode([]*commonpb.Payload{plain}); err != nil || dec[0] != plain {
		t.Fatalf("keyless Decode of a plain payload: %v, %v", dec, err)
	}
	enc, err := newCodec(t, a).Encode([]*commonpb.Payload{plain})
	if err != nil {
		t.Fatal(err)
	}
	_, err = k.Decode(enc)
	if err == nil || !strings.Contains(err.Error(), codec.KeyID(a)) || !strings.Contains(err.Error(), "given no codec key") {
		t.Fatalf("keyless Decode of an encrypted payload: %v; want it to name key A and that it has none", err)
	}
}

// FuzzParse: a key file's reader takes any bytes without panicking;
// what it accepts is keys of KeySize bytes, at least one.
func FuzzParse(f *testing.F) {
	f.Add([]byte(base64.StdEncoding.EncodeToString(make([]byte, 32)) + "\n"))
	f.Add([]byte("# c\n\n" + base64.StdEncoding.EncodeToString(make([]byte, 32)) + "\r\n" + base64.StdEncoding.EncodeToString(make([]byte, 16))))
	f.Add([]byte("====\n"))
	f.Add([]byte{0xff, '\n', 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		keys, err := codec.Parse(b)
		if err != nil {
			return
		}
		if len(keys) == 0 {
			t.Fatal("no keys and no error")
		}
		for _, k := range keys {
			if len(k) != codec.KeySize {
				t.Fatalf("a key of %d bytes accepted", len(k))
			}
		}
	})
}

// FuzzCodecDecode: Decode takes payloads from outside (the server, any
// client): whatever their data and key id, it decodes or refuses,
// never panics, and what it decodes was encoded with its key.
func FuzzCodecDecode(f *testing.F) {
	key := make([]byte, codec.KeySize) // fixed, so the corpus replays
	c := newCodec(f, key)
	enc, err := c.Encode([]*commonpb.Payload{{Data: []byte("x")}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(enc[0].Data, codec.KeyID(key))
	f.Add([]byte{}, codec.KeyID(key))
	f.Add(make([]byte, 28), codec.KeyID(key))
	f.Add([]byte("data"), "other")
	f.Fuzz(func(t *testing.T, data []byte, id string) {
		p := &commonpb.Payload{Metadata: map[string][]byte{converter.MetadataEncoding: []byte("binary/encrypted"), "encryption-key-id": []byte(id)}, Data: data}
		dec, err := c.Decode([]*commonpb.Payload{p})
		if err != nil {
			return
		}
		if id != codec.KeyID(key) || len(dec) != 1 || dec[0] == nil {
			t.Fatalf("decoded %v with key id %q", dec, id)
		}
	})
}

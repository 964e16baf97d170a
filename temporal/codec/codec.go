// Package codec encrypts Temporal payloads: a converter.PayloadCodec
// with AES-256-GCM and a key id in each payload, so keys rotate, and the
// key file runbook-temporal's --codec-key names. It owns one rule:
//
//	payload metadata                  data
//	encoding: binary/encrypted        nonce (12 bytes) ‖ AES-256-GCM(the payload, marshalled whole)
//	encryption-key-id: <key's id>
//
// It imports nothing of runbook, and is its own package so that its
// fuzz targets build without Temporal's server.
package codec

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// A run's inputs, and the secret values its commands' output is masked
// by, travel in workflow and activity payloads, which Temporal stores in
// the run's history. The codec encrypts every payload before it leaves
// this process and decrypts it after, so the server, and anyone who reads
// its database or its history, holds only ciphertext (the table above).
// The key's id is the first 16 hex digits of the key's SHA-256: it names
// the key (so a process holding several finds the one that decodes) and
// reveals nothing of it. Encode uses the first key, Decode whichever key
// the payload names, so keys rotate without stopping runs, in three steps
// (docs/SCALE.md): the new key second everywhere, then first everywhere,
// then the old one dropped once no run it encrypted is in flight.

// KeySize is the size of a codec key: AES-256.
const KeySize = 32

// The metadata of an encrypted payload.
const (
	encodingEncrypted = "binary/encrypted"
	metaKeyID         = "encryption-key-id"
)

// Codec is a Temporal payload codec that encrypts with AES-256-GCM (see
// package doc). Build it with New; give it to a client with DataConverter.
type Codec struct {
	keys []codecKey // keys[0] encodes
}

type codecKey struct {
	id   string
	aead cipher.AEAD
}

// New is a codec with keys, each KeySize bytes: the first encodes,
// any of them decodes.
func New(keys [][]byte) (*Codec, error) {
	if len(keys) == 0 {
		return nil, fmt.Errorf("a codec needs at least one key")
	}
	c := &Codec{}
	for i, k := range keys {
		if len(k) != KeySize {
			return nil, fmt.Errorf("key %d is %d bytes, want %d (AES-256)", i+1, len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		c.keys = append(c.keys, codecKey{id: KeyID(k), aead: aead})
	}
	return c, nil
}

// Keyless is a codec with no key, for a process given none: it encodes
// nothing and passes every payload nobody encrypted, and refuses one
// that is encrypted in words that say what the process lacks. Without
// it, a worker started with no key failed a run whose inputs were
// encrypted with the SDK's "payload encoding is not supported".
func Keyless() *Codec { return &Codec{} }

// NewKey is a new random key, what a key file's line holds (base64).
func NewKey() []byte {
	k := make([]byte, KeySize)
	_, _ = rand.Read(k) // crypto/rand.Read never returns an error: it crashes the program first
	return k
}

// KeyID is the id a key is named by in the payloads it encrypts: the
// first 16 hex digits of its SHA-256.
func KeyID(key []byte) string {
	sum := sha256.Sum256(key)
	return hex.EncodeToString(sum[:8])
}

// DataConverter is Temporal's default data converter with c's encryption
// on every payload: give it to client.Options.DataConverter on every
// client and worker of runs with secrets.
func DataConverter(c *Codec) converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// Encode encrypts each payload with the first key.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	if len(c.keys) == 0 { // Keyless
		return payloads, nil
	}
	k := c.keys[0]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encrypt a payload: %w", err)
		}
		nonce := make([]byte, k.aead.NonceSize())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("encrypt a payload: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{converter.MetadataEncoding: []byte(encodingEncrypted), metaKeyID: []byte(k.id)},
			Data:     k.aead.Seal(nonce, nonce, plain, []byte(k.id)),
		}
	}
	return out, nil
}

// Decode decrypts each encrypted payload with the key it names; a payload
// this codec did not encrypt passes as it is. A payload it cannot decrypt
// (a key it does not hold, data altered or cut) is an error that says
// which key was wanted and which it holds, never a guess.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != encodingEncrypted {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[metaKeyID])
		var k *codecKey
		for j := range c.keys {
			if c.keys[j].id == id {
				k = &c.keys[j]
				break
			}
		}
		if k == nil && len(c.keys) == 0 {
			return nil, fmt.Errorf("a payload is encrypted with codec key %q, and this process was given no codec key: give it the key (--codec-key, docs/SCALE.md)", printable(id))
		}
		if k == nil {
			return nil, fmt.Errorf("a payload is encrypted with codec key %q, and the codec decoding it holds only %s: give that process the key (--codec-key, docs/SCALE.md)", printable(id), c.ids())
		}
		data := p.GetData()
		n := k.aead.NonceSize()
		if len(data) < n+k.aead.Overhead() {
			return nil, fmt.Errorf("a payload encrypted with codec key %s is %d bytes, too short to be one", k.id, len(data))
		}
		plain, err := k.aead.Open(nil, data[:n], data[n:], []byte(k.id))
		if err != nil {
			return nil, fmt.Errorf("a payload encrypted with codec key %s does not decrypt (altered, or not made by a runbook codec): %w", k.id, err)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, fmt.Errorf("a payload decrypted with codec key %s is not a payload: %w", k.id, err)
		}
		out[i] = &dec
	}
	return out, nil
}

func (c *Codec) ids() string {
	ids := make([]string, len(c.keys))
	for i, k := range c.keys {
		ids[i] = fmt.Sprintf("%q", k.id)
	}
	return strings.Join(ids, ", ")
}

// printable is an id read from outside, safe to put in an error: at most
// 64 bytes, quoted by the caller.
func printable(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return s
}

// ReadKeyFile reads the codec keys in the file at path: one key a line,
// each KeySize random bytes in standard base64, the first the key that
// encrypts; blank lines and lines starting with # are skipped. Made with
//
//	head -c32 /dev/urandom | base64 > runbook.key
//
// and rotated by adding a new key (the three steps in docs/SCALE.md).
func ReadKeyFile(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("codec key file: %w", err)
	}
	keys, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("codec key file %s: %w", path, err)
	}
	return keys, nil
}

// Parse reads a key file's bytes (ReadKeyFile). Its errors name the
// line, never the key.
func Parse(b []byte) ([][]byte, error) {
	var keys [][]byte
	for n, line := range bytes.Split(b, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k := make([]byte, base64.StdEncoding.DecodedLen(len(line)))
		m, err := base64.StdEncoding.Decode(k, line)
		if err != nil {
			return nil, fmt.Errorf("line %d is not base64 (want %d random bytes in base64: head -c%d /dev/urandom | base64)", n+1, KeySize, KeySize)
		}
		if m != KeySize {
			return nil, fmt.Errorf("line %d is a key of %d bytes, want %d (AES-256: head -c%d /dev/urandom | base64)", n+1, m, KeySize, KeySize)
		}
		keys = append(keys, k[:m])
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("no key in it (want %d random bytes in base64 on a line: head -c%d /dev/urandom | base64)", KeySize, KeySize)
	}
	return keys, nil
}

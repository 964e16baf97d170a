package secret

import "bytes"

// MaskStream copies raw[from:keep] with every secret replaced by Masked:
// the exact-match masker of a stream seen as raw bytes (a command's
// captured output), given the Forms of a Set, and the material of every
// private key in it masked (PrivateKeys), which no Set need hold. The scan
// starts at 0, so raw[:from] is context only: a match that starts there and
// ends past from is written as "***". At each position the longest matching
// secret wins; a match may run past keep.
func MaskStream(raw []byte, secrets []string, from, keep int) []byte {
	var ss [][]byte
	var first [256]bool
	for _, s := range secrets {
		if s != "" {
			ss = append(ss, []byte(s))
			first[s[0]] = true
		}
	}
	if len(ss) == 0 {
		return byForm(bytes.Clone(raw[from:keep]))
	}
	// Longest first, so "abcd" wins over "ab" at the same position.
	for i := 1; i < len(ss); i++ {
		for j := i; j > 0 && len(ss[j]) > len(ss[j-1]); j-- {
			ss[j], ss[j-1] = ss[j-1], ss[j]
		}
	}
	out := make([]byte, 0, keep)
	for i := 0; i < keep; {
		matched := 0
		if first[raw[i]] {
			for _, s := range ss {
				if bytes.HasPrefix(raw[i:], s) {
					matched = len(s)
					break
				}
			}
		}
		if matched > 0 {
			if i+matched > from {
				out = append(out, Masked...)
			}
			i += matched
			continue
		}
		if i >= from {
			out = append(out, raw[i])
		}
		i++
	}
	return byForm(out)
}

// Longest is the length of the longest secret: how far past a cut a
// stream masker must read to see a secret that straddles it whole.
func Longest(secrets []string) int {
	n := 0
	for _, s := range secrets {
		n = max(n, len(s))
	}
	return n
}

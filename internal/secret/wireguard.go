package secret

import (
	"regexp"
	"strings"
)

// wgKey is a WireGuard key as wg prints one: 32 bytes in base64, 43
// characters and "=".
const wgKey = `[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=`

// wgIface is the interface's name `wg show all …` puts before each line:
// anything but a blank, at most 15 bytes (IFNAMSIZ).
const wgIface = `[^\s]{1,15}\t`

var (
	// wgConfKey is a config's private or preshared key (wg showconf,
	// wg-quick's wg0.conf, wg setconf's file): the name, any case, as wg
	// reads it, then "=" and the key to the line's end.
	wgConfKey = regexp.MustCompile(`(?im)^([ \t]*(?:PrivateKey|PresharedKey)[ \t]*=[ \t]*)([^\s#][^\r\n]*?)([ \t]*\r?$)`)
	// wgDumpInterface is `wg show … dump`'s interface line: [IFACE]
	// PRIVATE PUBLIC PORT FWMARK, the private key the second group.
	wgDumpInterface = regexp.MustCompile(`(?m)^(` + wgIface + `)?(` + wgKey + `)(\t(?:` + wgKey + `|\(none\))\t[0-9]+\t(?:off|0x[0-9a-f]+|[0-9]+)\r?)$`)
	// wgDumpPeer is its peer line: [IFACE] PUBLIC PRESHARED ENDPOINT
	// ALLOWED-IPS HANDSHAKE RX TX KEEPALIVE, the preshared key the third
	// group; and `wg show … preshared-keys`' [IFACE] PUBLIC PRESHARED.
	wgDumpPeer = regexp.MustCompile(`(?m)^((?:` + wgIface + `)?` + wgKey + `\t)(` + wgKey + `)((?:\t[^\t\r\n]*\t[^\t\r\n]*\t[0-9]+\t[0-9]+\t[0-9]+\t(?:off|[0-9]+))?\r?)$`)
)

// WireGuardKeys is t with every WireGuard private and preshared key in it
// masked by its place: a config's PrivateKey and PresharedKey (`wg
// showconf`, wg-quick's file), the interface line of `wg show … dump`
// (its private key) and the preshared key of its peer lines and of `wg
// show … preshared-keys`. A chart listing a server's peers from `wg show
// all dump` put the server's private key in its table and record, though
// the run was given no secret (TestWireGuardKeysAreMaskedByForm). The
// public keys, endpoints and counters a chart judges are kept, and a
// preshared key wg prints as (none) is left, so a chart can still ask
// whether a peer has one. `wg show IFACE private-key` prints the key
// alone, no different from `public-key`'s: a chart must not ask for it.
// Idempotent.
//
//	wg0	WD5b…EYc=	b61p…LzA=	51820	off   wg0	***	b61p…LzA=	51820	off
//	tfoL…Kws=	q2bD…t7k=	10.77.0.2:51821	…     tfoL…Kws=	***	10.77.0.2:51821	…
//	PrivateKey = WD5b…EYc=                      PrivateKey = ***
func WireGuardKeys(t string) string {
	if !strings.Contains(t, "=") {
		return t
	}
	if hasFold(t, "privatekey") || hasFold(t, "presharedkey") {
		t = wgConfKey.ReplaceAllStringFunc(t, func(m string) string {
			sub := wgConfKey.FindStringSubmatch(m)
			if sub[2] == Masked {
				return m
			}
			return sub[1] + Masked + sub[3]
		})
	}
	// a dump's key, private or preshared, is followed by a tab, or ends a
	// preshared-keys line, its tab before it
	if !strings.Contains(t, "=\t") {
		return t
	}
	t = wgDumpInterface.ReplaceAllString(t, "${1}"+Masked+"${3}")
	return wgDumpPeer.ReplaceAllString(t, "${1}"+Masked+"${3}")
}

// hasFold says whether t holds lower, a word of ASCII lower-case letters,
// in any case.
func hasFold(t, lower string) bool {
	for i := 0; i+len(lower) <= len(t); i++ {
		if t[i]|0x20 == lower[0] && foldedAt(t, i, lower) {
			return true
		}
	}
	return false
}

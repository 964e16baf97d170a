package secret

import "testing"

// TestWireGuardKeysAreMaskedByForm: a chart listing a WireGuard server's
// peers ran `wg show all dump`, whose interface lines print the
// interface's private key (its second field) and whose peer lines print
// each peer's preshared key (their third field), and a config audit ran
// `wg showconf wg0` (`PrivateKey = …`, `PresharedKey = …`): the server's
// private key stood in the table and seven times in the record, though
// the run was given no secret (real wg 1.0.20210914 output, wireguard-go
// 0.0.20220316). The private and preshared keys are masked by their
// place; the public keys, endpoints and counters a chart judges are
// kept, and a preshared key wg prints as (none) is as it was.
func TestWireGuardKeysAreMaskedByForm(t *testing.T) {
	const (
		priv = "WD5boSI0LIvevffoSVrlyfIOBmB7b/TpQyymttTsYEc="
		pub  = "b61pG+xcK5q7dvJrYFqHUg8jtvE6abGrDPl2F56qLzA="
		peer = "tfoLSevN6lgkaduLA4HnhmqNFWzeeqxUlZrLA33QKws="
		psk  = "q2bD8Kc0xKz1q0hJ0o2mJ8Yt7nY1H3o0QyR2mJ8Yt7k="
	)
	maskedByForm(t, map[string]string{
		// wg show all dump: IFACE PRIVATE PUBLIC PORT FWMARK, then IFACE PUBLIC PSK ENDPOINT ALLOWED HANDSHAKE RX TX KEEPALIVE
		"wg0\t" + priv + "\t" + pub + "\t51820\toff\n" +
			"wg0\t" + peer + "\t(none)\t10.77.0.2:51821\t10.9.0.2/32\t1796689704\t244\t188\toff\n" +
			"wg0\t" + pub + "\t" + psk + "\t(none)\t10.9.0.3/32\t0\t0\t0\t25\n": "wg0\t***\t" + pub + "\t51820\toff\n" +
			"wg0\t" + peer + "\t(none)\t10.77.0.2:51821\t10.9.0.2/32\t1796689704\t244\t188\toff\n" +
			"wg0\t" + pub + "\t***\t(none)\t10.9.0.3/32\t0\t0\t0\t25\n",
		// wg show wg0 dump: the same without the interface's name
		priv + "\t" + pub + "\t51820\t0xca6c\n" + peer + "\t" + psk + "\t10.77.0.2:51821\t10.9.0.2/32,fd00::2/128\t0\t0\t0\toff\n": "***\t" + pub + "\t51820\t0xca6c\n" + peer + "\t***\t10.77.0.2:51821\t10.9.0.2/32,fd00::2/128\t0\t0\t0\toff\n",
		// wg show wg0 preshared-keys, wg show all preshared-keys
		peer + "\t" + psk + "\n" + pub + "\t(none)\n": peer + "\t***\n" + pub + "\t(none)\n",
		"wg0\t" + peer + "\t" + psk + "\n":            "wg0\t" + peer + "\t***\n",
		// wg showconf wg0, a wg-quick wg0.conf
		"[Interface]\nListenPort = 51820\nPrivateKey = " + priv + "\n\n[Peer]\nPublicKey = " + peer + "\nPresharedKey = " + psk + "\nAllowedIPs = 10.9.0.2/32\n": "[Interface]\nListenPort = 51820\nPrivateKey = ***\n\n[Peer]\nPublicKey = " + peer + "\nPresharedKey = ***\nAllowedIPs = 10.9.0.2/32\n",
		"privatekey=" + priv + "\r\n": "privatekey=***\r\n",
		// what a chart judges is kept: latest-handshakes, transfer, wg show's own hidden key
		peer + "\t1796689704\n" + pub + "\t0\n":                                "" + peer + "\t1796689704\n" + pub + "\t0\n",
		"interface: wg0\n  public key: " + pub + "\n  private key: (hidden)\n": "interface: wg0\n  public key: " + pub + "\n  private key: (hidden)\n",
		"PublicKey = " + pub + "\n":                                            "PublicKey = " + pub + "\n",
	})
}

// TestOpenVPNStaticKeysAreMaskedByForm: a chart auditing an OpenVPN
// client profile read the .ovpn file, whose inline <tls-crypt> block
// holds the server's shared static key (openvpn --genkey secret ta.key),
// and kept it in the record whole: anyone holding it may speak to the
// server's TLS port as a client. Its body is masked between its armour,
// as a private key's is; so is a tls-crypt-v2 key's.
func TestOpenVPNStaticKeysAreMaskedByForm(t *testing.T) {
	key := "#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n" +
		"5f3c2a2b9d1e0f4a6b7c8d9e0f1a2b3c\n4d5e6f708192a3b4c5d6e7f8091a2b3c\n" +
		"-----END OpenVPN Static key V1-----\n"
	v2 := "-----BEGIN OpenVPN tls-crypt-v2 client key-----\nBvT1bJ4o0mN3yZ3x1Q0eY2c7YQ==\n-----END OpenVPN tls-crypt-v2 client key-----\n"
	maskedByForm(t, map[string]string{
		"remote vpn.example.org 1194\n<tls-crypt>\n" + key + "</tls-crypt>\n": "remote vpn.example.org 1194\n<tls-crypt>\n#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n***\n-----END OpenVPN Static key V1-----\n</tls-crypt>\n",
		v2:                                "-----BEGIN OpenVPN tls-crypt-v2 client key-----\n***\n-----END OpenVPN tls-crypt-v2 client key-----\n",
		"tls-crypt /etc/openvpn/ta.key\n": "tls-crypt /etc/openvpn/ta.key\n",
	})
}

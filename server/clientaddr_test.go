package server

import (
	"net"
	"testing"

	"github.com/valyala/fasthttp"
)

// TestClientAddr: the client address is the TCP peer unless the peer is a
// trusted proxy; then it is the rightmost forwarded hop that is not a
// trusted proxy. Hops that cannot be read, obfuscated identifiers and
// "unknown" stop the walk at the nearest trusted proxy.
func TestClientAddr(t *testing.T) {
	ps, err := ParseTrustedProxies("10.0.0.0/8, 192.0.2.1, 2001:db8:1::/48")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		peer string
		hdr  [][2]string
		want string
	}{
		{"203.0.113.5", [][2]string{{"X-Forwarded-For", "198.51.100.1"}}, "203.0.113.5"}, // untrusted peer: header ignored
		{"10.1.1.1", nil, "10.1.1.1"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "198.51.100.1"}}, "198.51.100.1"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "1.1.1.1, 198.51.100.1, 10.2.2.2"}}, "198.51.100.1"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "1.1.1.1"}, {"X-Forwarded-For", "198.51.100.2"}}, "198.51.100.2"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "10.3.3.3, 10.2.2.2"}}, "10.3.3.3"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "garbage"}}, "10.1.1.1"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "198.51.100.1, garbage"}}, "10.1.1.1"},
		{"192.0.2.1", [][2]string{{"Forwarded", `for=198.51.100.7;proto=https;by=192.0.2.1`}}, "198.51.100.7"},
		{"192.0.2.1", [][2]string{{"Forwarded", `for="[2001:db8::17]:4711"`}}, "2001:db8::17"},
		{"192.0.2.1", [][2]string{{"Forwarded", `for=198.51.100.8, for=10.9.9.9`}}, "198.51.100.8"},
		{"192.0.2.1", [][2]string{{"Forwarded", `For=unknown`}}, "192.0.2.1"},
		{"192.0.2.1", [][2]string{{"Forwarded", `for=_hidden`}, {"X-Forwarded-For", "198.51.100.9"}}, "192.0.2.1"}, // Forwarded wins
		{"192.0.2.1", [][2]string{{"Forwarded", `proto=https`}, {"X-Forwarded-For", "198.51.100.9"}}, "192.0.2.1"},
		{"2001:db8:1::5", [][2]string{{"X-Forwarded-For", "198.51.100.3:5555"}}, "198.51.100.3"},
		{"10.1.1.1", [][2]string{{"X-Forwarded-For", "::ffff:198.51.100.4"}}, "198.51.100.4"},
	} {
		var req fasthttp.Request
		for _, h := range c.hdr {
			req.Header.Add(h[0], h[1])
		}
		var ctx fasthttp.RequestCtx
		ctx.Init(&req, &net.TCPAddr{IP: net.ParseIP(c.peer), Port: 1234}, nil)
		if got := ps.clientAddr(&ctx).String(); got != c.want {
			t.Errorf("peer %s, headers %v: %s, want %s", c.peer, c.hdr, got, c.want)
		}
	}
	if _, err := ParseTrustedProxies("10.0.0.0/8, nonsense"); err == nil {
		t.Fatal("a bad trusted-proxies entry parsed")
	}
}

package server

import (
	"bytes"
	"fmt"
	"net"
	"net/netip"
	"strings"

	"github.com/valyala/fasthttp"
)

// proxies is the trusted-proxies setting: the peers whose Forwarded or
// X-Forwarded-For header is believed.
type proxies []netip.Prefix

// ParseTrustedProxies parses trusted-proxies: comma-separated addresses
// or CIDRs.
func ParseTrustedProxies(s string) (proxies, error) {
	var out proxies
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted-proxies: %q is neither an address nor a CIDR", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func (ps proxies) trusted(a netip.Addr) bool {
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address a request comes from: the TCP peer, or, when
// the peer is a trusted proxy, the rightmost hop of Forwarded (RFC 7239;
// else X-Forwarded-For) that is not itself a trusted proxy. Walking from
// the right means an address the client wrote into the header itself is
// never taken while a proxy appended a later one. A header that cannot be
// read, or an obfuscated or "unknown" hop, leaves the nearest trusted
// proxy's address: such clients then share that proxy's budget, which
// limits only failures, never valid keys.
func (ps proxies) clientAddr(ctx *fasthttp.RequestCtx) netip.Addr {
	peer, _ := netip.AddrFromSlice(ctx.RemoteIP())
	peer = peer.Unmap()
	if len(ps) == 0 || !ps.trusted(peer) {
		return peer
	}
	hops, ok := forwardedHops(&ctx.Request.Header)
	if !ok {
		return peer
	}
	addr := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := parseHop(hops[i])
		if err != nil {
			return addr
		}
		if !ps.trusted(a) {
			return a
		}
		addr = a
	}
	return addr
}

// forwardedHops lists the client addresses of Forwarded's for= parameters,
// or else of X-Forwarded-For, in header order across repeated lines.
func forwardedHops(h *fasthttp.RequestHeader) (hops []string, ok bool) {
	if vs := h.PeekAll("Forwarded"); len(vs) > 0 {
		for _, v := range vs {
			for _, elem := range bytes.Split(v, []byte{','}) {
				for _, pair := range bytes.Split(elem, []byte{';'}) {
					k, val, found := bytes.Cut(bytes.TrimSpace(pair), []byte{'='})
					if found && bytes.EqualFold(k, []byte("for")) {
						hops = append(hops, string(val))
					}
				}
			}
		}
		return hops, len(hops) > 0
	}
	for _, v := range h.PeekAll("X-Forwarded-For") {
		for _, hop := range bytes.Split(v, []byte{','}) {
			hops = append(hops, string(bytes.TrimSpace(hop)))
		}
	}
	return hops, len(hops) > 0
}

// parseHop reads one hop: 192.0.2.1, 192.0.2.1:80, "[2001:db8::1]:80",
// 2001:db8::1 (X-Forwarded-For), with or without quotes.
func parseHop(s string) (netip.Addr, error) {
	s = strings.Trim(s, `"`)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), nil
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	a, err := netip.ParseAddr(s)
	return a.Unmap(), err
}

// Package webhook delivers signed job notifications to callers' URLs:
// which URLs are allowed (AllowList, checked when a job is created and
// again for every address dialled), the signature (Sign), and the
// Dispatcher that sends due deliveries with bounded workers, timeouts and
// retries with backoff. It knows nothing of jobs: a Store hands it
// deliveries and payloads and records their outcome.
package webhook

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
)

// ErrRefused reports a callback URL or address outside the allow-list.
var ErrRefused = errors.New("webhook: not allowed by webhook-allow-hosts")

// AllowList is the parsed webhook-allow-hosts setting: host names (exact,
// case-insensitive), IP addresses and CIDR prefixes.
//
// A callback URL is allowed when its host is a listed name, or when its
// address (an IP literal, or every address its name resolves to) lies in
// a listed address or prefix. At delivery time every address is checked
// again before it is dialled: one inside a listed prefix is fine; a listed
// name may otherwise resolve only to public addresses, so re-pointing the
// name's DNS at loopback, private or link-local space (DNS rebinding)
// cannot reach internal hosts unless the operator listed those ranges.
type AllowList struct {
	names    map[string]bool
	prefixes []netip.Prefix
	resolver Resolver
}

// Resolver looks up a host's addresses (net.DefaultResolver in
// production).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// ParseAllowList parses a comma-separated list. An empty list allows
// nothing: webhooks are off.
func ParseAllowList(s string) (*AllowList, error) {
	a := &AllowList{names: map[string]bool{}, resolver: net.DefaultResolver}
	for _, e := range strings.Split(s, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if p, err := netip.ParsePrefix(e); err == nil {
			a.prefixes = append(a.prefixes, p.Masked())
			continue
		}
		if ip, err := netip.ParseAddr(e); err == nil {
			a.prefixes = append(a.prefixes, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
			continue
		}
		if !validHostName(e) {
			return nil, fmt.Errorf("webhook-allow-hosts: %q is not a host name, IP address or CIDR", e)
		}
		a.names[strings.ToLower(strings.TrimSuffix(e, "."))] = true
	}
	return a, nil
}

// Enabled reports whether any host is allowed.
func (a *AllowList) Enabled() bool { return len(a.names) > 0 || len(a.prefixes) > 0 }

// WithResolver returns a copy of a that resolves names with r (tests).
func (a *AllowList) WithResolver(r Resolver) *AllowList {
	c := *a
	c.resolver = r
	return &c
}

func validHostName(h string) bool {
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// maxURLLen bounds a callback URL.
const maxURLLen = 2048

// CheckURL validates a callback URL when a job is created: absolute http
// or https, a host, no user info or fragment, and allowed by the list. The
// error says why, without echoing the URL.
func (a *AllowList) CheckURL(ctx context.Context, raw string) error {
	if !a.Enabled() {
		return fmt.Errorf("%w: webhooks are off on this server", ErrRefused)
	}
	if len(raw) > maxURLLen {
		return fmt.Errorf("longer than %d bytes", maxURLLen)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return errors.New("not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return errors.New("must be an http or https URL")
	case u.Host == "" || u.Hostname() == "":
		return errors.New("has no host")
	case u.User != nil:
		return errors.New("must not carry user info")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return errors.New("must not carry a fragment")
	}
	if p := u.Port(); p != "" {
		if n, err := netPort(p); err != nil || n == 0 {
			return errors.New("has a bad port")
		}
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if ip, err := netip.ParseAddr(host); err == nil {
		if !a.inPrefixes(ip) {
			return fmt.Errorf("%w: host", ErrRefused)
		}
		return nil
	}
	if a.names[host] {
		return nil
	}
	if len(a.prefixes) == 0 {
		return fmt.Errorf("%w: host", ErrRefused)
	}
	ips, err := a.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil || len(ips) == 0 {
		return fmt.Errorf("%w: host does not resolve", ErrRefused)
	}
	for _, ip := range ips {
		if !a.inPrefixes(ip) {
			return fmt.Errorf("%w: host", ErrRefused)
		}
	}
	return nil
}

func netPort(p string) (int, error) {
	n := 0
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0, errors.New("port")
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return 0, errors.New("port")
		}
	}
	return n, nil
}

func (a *AllowList) inPrefixes(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range a.prefixes {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// permitted reports whether host's address ip may be dialled.
func (a *AllowList) permitted(host string, ip netip.Addr) bool {
	ip = ip.Unmap()
	if a.inPrefixes(ip) {
		return true
	}
	return a.names[strings.ToLower(strings.TrimSuffix(host, "."))] && public(ip)
}

// public reports whether ip is a global unicast address outside the
// private, loopback, link-local, shared (CGNAT) and unspecified ranges.
func public(ip netip.Addr) bool {
	if !ip.IsGlobalUnicast() || ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() {
		return false
	}
	return !cgnat.Contains(ip)
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// DialContext resolves addr's host, keeps the addresses the list permits
// and dials the first that answers, by address, so the name is not looked
// up again between the check and the connection.
func (a *AllowList) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = a.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	var d net.Dialer
	var last error = fmt.Errorf("%w: no permitted address", ErrRefused)
	for _, ip := range ips {
		if !a.permitted(host, ip) {
			continue
		}
		c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		last = err
	}
	return nil, last
}

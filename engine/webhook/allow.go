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
// name's DNS at loopback, private, link-local or any other special-purpose
// space (DNS rebinding; see public) cannot reach internal hosts unless the
// operator listed those ranges.
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

// public reports whether ip may be dialled for a name listed by itself:
// a globally reachable unicast address. Refused are every block of the
// IANA IPv4 and IPv6 Special-Purpose Address Registries that is not
// globally reachable (refused4, refused6), multicast, and for IPv6
// everything outside 2000::/3, the only space IANA allocates for global
// unicast (so ::/8, 100::/8, 5f00::/16, fc00::/7, fe80::/10, fec0::/10 and
// ff00::/8 whatever the registries add there later). An address with a
// zone is scoped to a link: refused.
//
// IPv6 forms that carry an IPv4 address:
//   - IPv4-mapped ::ffff:0:0/96 (RFC 4291) is the IPv4 address itself:
//     the dialler connects to that IPv4 address, so it is checked as one.
//   - NAT64 64:ff9b::/96 (RFC 6052) is globally reachable in the registry;
//     on an IPv6-only network DNS64 hands it out for every IPv4-only
//     receiver, and the translator connects to the embedded address. So
//     the embedded IPv4 address (the last 32 bits) is checked:
//     64:ff9b::808:808 (8.8.8.8) may be dialled, 64:ff9b::7f00:1
//     (127.0.0.1) may not.
//   - Everything else is refused outright, embedded address or not:
//     local-use NAT64 64:ff9b:1::/48 (RFC 8215; not globally reachable),
//     6to4 2002::/16 (RFC 3056, deprecated by RFC 7526 for relays),
//     Teredo 2001::/32 (RFC 4380, inside 2001::/23), IPv4-compatible ::/96
//     (RFC 4291, deprecated) and SIIT ::ffff:0:0:0/96 (RFC 2765,
//     obsoleted): tunnels and translators a receiver has no reason to sit
//     behind, which would reach an IPv4 address (or a relay's network) the
//     IPv4 check never saw.
func public(ip netip.Addr) bool {
	if !ip.IsValid() || ip.Zone() != "" {
		return false
	}
	ip = ip.Unmap()
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	if ip.Is4() {
		return !inAny(refused4, ip)
	}
	return global6.Contains(ip) && !inAny(refused6, ip)
}

func inAny(ps []netip.Prefix, ip netip.Addr) bool {
	for _, p := range ps {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

var (
	nat64   = netip.MustParsePrefix("64:ff9b::/96")
	global6 = netip.MustParsePrefix("2000::/3") // IANA IPv6 Address Space: Global Unicast
)

// refused4: the IANA IPv4 Special-Purpose Address Registry
// (iana-ipv4-special-registry) entries that are not globally reachable,
// plus multicast and the deprecated 6to4 relay anycast block. Whole blocks
// are refused: inside 192.0.0.0/24 the registry marks 192.0.0.9/32 (PCP
// anycast, RFC 7723) and 192.0.0.10/32 (TURN anycast, RFC 8155) globally
// reachable; no webhook receiver lives at an anycast service address.
// Globally reachable entries outside these blocks (AS112 192.31.196.0/24
// and 192.175.48.0/24, RFC 7535 and 7534; AMT 192.52.193.0/24, RFC 7450)
// are ordinary unicast and not refused.
var refused4 = prefixes(
	"0.0.0.0/8",          // "this network" (0.0.0.0/32: "this host"), RFC 791 3.2, RFC 1122 3.2.1.3; Linux dials 0.0.0.0 as localhost
	"10.0.0.0/8",         // private use, RFC 1918
	"100.64.0.0/10",      // shared address space (CGNAT), RFC 6598
	"127.0.0.0/8",        // loopback, RFC 1122 3.2.1.3
	"169.254.0.0/16",     // link local (cloud metadata 169.254.169.254), RFC 3927
	"172.16.0.0/12",      // private use, RFC 1918
	"192.0.0.0/24",       // IETF protocol assignments, RFC 6890 2.1: within it 192.0.0.0/29 IPv4 service continuity (DS-Lite, RFC 7335, RFC 6333), 192.0.0.8/32 IPv4 dummy address (RFC 7600), 192.0.0.170/32 and 192.0.0.171/32 NAT64/DNS64 discovery (RFC 8880, RFC 7050)
	"192.0.2.0/24",       // documentation TEST-NET-1, RFC 5737
	"192.88.99.0/24",     // deprecated 6to4 relay anycast, RFC 7526 (formerly RFC 3068)
	"192.168.0.0/16",     // private use, RFC 1918
	"198.18.0.0/15",      // benchmarking, RFC 2544
	"198.51.100.0/24",    // documentation TEST-NET-2, RFC 5737
	"203.0.113.0/24",     // documentation TEST-NET-3, RFC 5737
	"224.0.0.0/4",        // multicast, RFC 5771 (not in the special-purpose registry; never unicast)
	"240.0.0.0/4",        // reserved, RFC 1112 4
	"255.255.255.255/32", // limited broadcast, RFC 919 7, RFC 8190 (inside 240.0.0.0/4; listed for the record)
)

// refused6: the IANA IPv6 Special-Purpose Address Registry
// (iana-ipv6-special-registry) entries that are not globally reachable,
// those it marks N/A (6to4, Teredo, ORCHID), and the deprecated or
// non-global ranges outside the registry. Entries outside 2000::/3 are
// refused by the global6 test already; they are listed for the record.
// Inside 2001::/23 the registry marks a few blocks globally reachable
// (2001:1::1/128 PCP anycast RFC 7723, 2001:1::2/128 TURN anycast RFC 8155,
// 2001:1::3/128 DNS-SD SRP anycast RFC 9665, 2001:3::/32 AMT RFC 7450,
// 2001:4:112::/48 AS112-v6 RFC 7535, 2001:20::/28 ORCHIDv2 RFC 7343,
// 2001:30::/28 DRIP DETs RFC 9374): anycast services and identifiers, no
// webhook receiver; the whole /23 is refused. Globally reachable and not
// refused: 64:ff9b::/96 (by its embedded IPv4 address, above) and
// 2620:4f:8000::/48 (AS112 direct delegation, RFC 7534).
var refused6 = prefixes(
	"::/128",          // unspecified, RFC 4291
	"::1/128",         // loopback, RFC 4291
	"::/96",           // IPv4-compatible, RFC 4291 2.5.5.1 (deprecated; not in the registry)
	"::ffff:0:0/96",   // IPv4-mapped, RFC 4291 (unmapped and checked as IPv4 before this list)
	"::ffff:0:0:0/96", // SIIT IPv4-translated, RFC 2765 (obsoleted by RFC 6145; not in the registry)
	"64:ff9b:1::/48",  // local-use IPv4/IPv6 translation, RFC 8215
	"100::/64",        // discard-only, RFC 6666
	"2001::/23",       // IETF protocol assignments, RFC 2928; within it:
	"2001::/32",       //   Teredo, RFC 4380, RFC 8190 (globally reachable: N/A)
	"2001:2::/48",     //   benchmarking, RFC 5180, RFC Errata 1752
	"2001:10::/28",    //   deprecated ORCHID, RFC 4843 (N/A)
	"2001:db8::/32",   // documentation, RFC 3849
	"2002::/16",       // 6to4, RFC 3056 (N/A; relays deprecated by RFC 7526)
	"3fff::/20",       // documentation, RFC 9637
	"5f00::/16",       // segment routing (SRv6) SIDs, RFC 9602
	"fc00::/7",        // unique local, RFC 4193, RFC 8190
	"fe80::/10",       // link-local unicast, RFC 4291
	"fec0::/10",       // site-local, deprecated by RFC 3879 (not in the registry)
	"ff00::/8",        // multicast, RFC 4291 (not in the special-purpose registry)
)

func prefixes(ss ...string) []netip.Prefix {
	ps := make([]netip.Prefix, len(ss))
	for i, s := range ss {
		ps[i] = netip.MustParsePrefix(s)
	}
	return ps
}

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

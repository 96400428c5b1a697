package webhook

import (
	"context"
	"errors"
	"net/netip"
	"testing"
	"time"
)

// specialRanges is every range a name listed by itself must not reach,
// with addresses inside (first and last where it matters, and any the
// registry singles out) and the addresses just outside that are ordinary
// public unicast, so must stay reachable. Ranges whose neighbours are
// themselves refused (most of IPv6 outside 2000::/3, 240.0.0.0/4 beside
// multicast) have no outside address. It is the test's own list, not
// refused4/refused6: dropping a range from the code fails here.
var specialRanges = []struct {
	prefix, what string
	in, out      []string
}{
	// IANA IPv4 Special-Purpose Address Registry.
	{"0.0.0.0/8", "this network, RFC 791", []string{"0.0.0.0", "0.0.0.1", "0.255.255.255"}, []string{"1.0.0.0"}},
	{"10.0.0.0/8", "private, RFC 1918", []string{"10.0.0.0", "10.2.3.4", "10.255.255.255"}, []string{"9.255.255.255", "11.0.0.0"}},
	{"100.64.0.0/10", "shared (CGNAT), RFC 6598", []string{"100.64.0.0", "100.100.100.200", "100.127.255.255"}, []string{"100.63.255.255", "100.128.0.0"}},
	{"127.0.0.0/8", "loopback, RFC 1122", []string{"127.0.0.0", "127.0.0.1", "127.255.255.255"}, []string{"126.255.255.255", "128.0.0.0"}},
	{"169.254.0.0/16", "link local, RFC 3927", []string{"169.254.0.0", "169.254.169.254", "169.254.255.255"}, []string{"169.253.255.255", "169.255.0.0"}},
	{"172.16.0.0/12", "private, RFC 1918", []string{"172.16.0.0", "172.31.255.255"}, []string{"172.15.255.255", "172.32.0.0"}},
	{"192.0.0.0/24", "IETF protocol assignments, RFC 6890", []string{
		"192.0.0.0", "192.0.0.7", // IPv4 service continuity, RFC 7335
		"192.0.0.8",               // dummy, RFC 7600
		"192.0.0.9", "192.0.0.10", // PCP and TURN anycast: globally reachable, refused with the block
		"192.0.0.170", "192.0.0.171", // NAT64 discovery, RFC 8880
		"192.0.0.255",
	}, []string{"191.255.255.255", "192.0.1.0"}},
	{"192.0.2.0/24", "TEST-NET-1, RFC 5737", []string{"192.0.2.0", "192.0.2.1", "192.0.2.255"}, []string{"192.0.1.255", "192.0.3.0"}},
	{"192.88.99.0/24", "6to4 relay anycast, RFC 7526", []string{"192.88.99.0", "192.88.99.1", "192.88.99.255"}, []string{"192.88.98.255", "192.88.100.0"}},
	{"192.168.0.0/16", "private, RFC 1918", []string{"192.168.0.0", "192.168.1.1", "192.168.255.255"}, []string{"192.167.255.255", "192.169.0.0"}},
	{"198.18.0.0/15", "benchmarking, RFC 2544", []string{"198.18.0.0", "198.19.255.255"}, []string{"198.17.255.255", "198.20.0.0"}},
	{"198.51.100.0/24", "TEST-NET-2, RFC 5737", []string{"198.51.100.0", "198.51.100.255"}, []string{"198.51.99.255", "198.51.101.0"}},
	{"203.0.113.0/24", "TEST-NET-3, RFC 5737", []string{"203.0.113.0", "203.0.113.255"}, []string{"203.0.112.255", "203.0.114.0"}},
	{"224.0.0.0/4", "multicast, RFC 5771", []string{"224.0.0.0", "224.0.0.251", "239.255.255.255"}, []string{"223.255.255.255"}},
	{"240.0.0.0/4", "reserved, RFC 1112", []string{"240.0.0.0", "255.255.255.254"}, nil},
	{"255.255.255.255/32", "limited broadcast, RFC 919", []string{"255.255.255.255"}, nil},

	// IANA IPv6 Special-Purpose Address Registry, and what it leaves out.
	{"::/128", "unspecified, RFC 4291", []string{"::"}, nil},
	{"::1/128", "loopback, RFC 4291", []string{"::1"}, nil},
	{"::/96", "IPv4-compatible, RFC 4291 (deprecated)", []string{"::2", "::8.8.8.8", "::127.0.0.1", "::ffff:ffff"}, nil},
	{"::ffff:0:0/96", "IPv4-mapped, RFC 4291: checked as the IPv4 address", []string{"::ffff:0.0.0.0", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:255.255.255.255"}, nil},
	{"::ffff:0:0:0/96", "SIIT, RFC 2765", []string{"::ffff:0:0.0.0.0", "::ffff:0:8.8.8.8", "::ffff:0:127.0.0.1"}, nil},
	{"64:ff9b::/96", "NAT64, RFC 6052: checked as the embedded IPv4 address", []string{"64:ff9b::", "64:ff9b::127.0.0.1", "64:ff9b::10.0.0.1", "64:ff9b::169.254.169.254", "64:ff9b::100.64.0.1", "64:ff9b::192.0.2.1", "64:ff9b::198.18.0.1", "64:ff9b::224.0.0.1", "64:ff9b::255.255.255.255"}, nil},
	{"64:ff9b:1::/48", "local-use NAT64, RFC 8215", []string{"64:ff9b:1::", "64:ff9b:1::8.8.8.8", "64:ff9b:1:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"100::/64", "discard-only, RFC 6666", []string{"100::", "100::1", "100::ffff:ffff:ffff:ffff"}, nil},
	{"2001::/23", "IETF protocol assignments, RFC 2928", []string{
		"2001::",
		"2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo, RFC 4380 (its example)
		"2001:0:808:808::1",                    // Teredo via server 8.8.8.8
		"2001:1::1", "2001:1::2", "2001:1::3",  // PCP, TURN, DNS-SD SRP anycast: refused with the block
		"2001:2::1",     // benchmarking, RFC 5180
		"2001:3::1",     // AMT
		"2001:4:112::1", // AS112-v6
		"2001:10::1",    // ORCHID, RFC 4843
		"2001:20::1",    // ORCHIDv2
		"2001:30::1",    // DRIP DETs
		"2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff",
	}, []string{"2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::"}},
	{"2001:db8::/32", "documentation, RFC 3849", []string{"2001:db8::", "2001:db8::1", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"}, []string{"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"}},
	{"2002::/16", "6to4, RFC 3056", []string{"2002::", "2002:808:808::1", "2002:7f00:1::1", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, []string{"2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2003::"}},
	{"3fff::/20", "documentation, RFC 9637", []string{"3fff::", "3fff::1", "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff"}, []string{"3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"}},
	{"5f00::/16", "SRv6 SIDs, RFC 9602", []string{"5f00::", "5f00::1", "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"fc00::/7", "unique local, RFC 4193", []string{"fc00::", "fd00::1", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"fe80::/10", "link-local, RFC 4291", []string{"fe80::", "fe80::1", "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"fec0::/10", "site-local, RFC 3879 (deprecated)", []string{"fec0::", "fec0::1", "feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"ff00::/8", "multicast, RFC 4291", []string{"ff00::", "ff02::1", "ff0e::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	// Outside 2000::/3 IANA allocates no global unicast.
	{"::/8", "reserved by the IETF", []string{"::100:0:0", "ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"4000::/2", "unallocated", []string{"4000::", "4000::1", "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
	{"0::/3", "unallocated", []string{"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, []string{"2000::"}},
	{"8000::/1", "unallocated", []string{"8000::", "e000::1", "fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"}, nil},
}

// TestSpecialRanges: a name listed by itself reaches no address in any
// special-purpose range, and the public neighbours of each range stay
// reachable.
func TestSpecialRanges(t *testing.T) {
	a, _ := ParseAllowList("x.example")
	for _, r := range specialRanges {
		p := netip.MustParsePrefix(r.prefix)
		for _, s := range r.in {
			ip := netip.MustParseAddr(s)
			if !p.Contains(ip) {
				t.Fatalf("%s (%s): test address %s is not inside", r.prefix, r.what, s)
			}
			if a.permitted("x.example", ip) {
				t.Errorf("%s (%s): %s may be dialled", r.prefix, r.what, s)
			}
		}
		first, last := p.Addr(), lastAddr(p)
		for _, s := range r.out {
			ip := netip.MustParseAddr(s)
			if ip != first.Prev() && ip != last.Next() {
				t.Fatalf("%s: %s is not just outside (%s or %s)", r.prefix, s, first.Prev(), last.Next())
			}
			if !a.permitted("x.example", ip) {
				t.Errorf("%s (%s): %s, just outside, is refused", r.prefix, r.what, s)
			}
		}
	}
	// Ordinary public addresses, and the ends of 2000::/3.
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "223.255.255.254", "2001:4860:4860::8888", "2606:4700::1111", "2000::", "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2620:4f:8000::1"} {
		if !a.permitted("x.example", netip.MustParseAddr(s)) {
			t.Errorf("public %s refused", s)
		}
	}
	// A zone scopes an address to one link: never public.
	for _, s := range []string{"fe80::1%eth0", "2001:4860:4860::8888%eth0"} {
		if a.permitted("x.example", netip.MustParseAddr(s)) {
			t.Errorf("%s may be dialled", s)
		}
	}
}

// TestEmbeddedIPv4: of the IPv6 forms that carry an IPv4 address, an
// IPv4-mapped one is the IPv4 address (the dialler connects to it) and a
// NAT64 64:ff9b::/96 one reaches its embedded address through the
// translator: both are checked as that IPv4 address. The others (local
// NAT64, 6to4, Teredo, IPv4-compatible, SIIT) are refused outright, even
// with a public address inside.
func TestEmbeddedIPv4(t *testing.T) {
	a, _ := ParseAllowList("x.example")
	for s, want := range map[string]bool{
		"::ffff:8.8.8.8": true, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "::ffff:0.0.0.0": false,
		"64:ff9b::8.8.8.8": true, "64:ff9b::1.1.1.1": true, "64:ff9b::127.0.0.1": false, "64:ff9b::10.1.2.3": false,
		"64:ff9b::169.254.169.254": false, "64:ff9b::0.0.0.0": false, "64:ff9b::100.64.0.1": false,
		"64:ff9b::1:808:808":  false, // just past 64:ff9b::/96
		"64:ff9b:1::8.8.8.8":  false, // local-use NAT64
		"2002:808:808::1":     false, // 6to4 of 8.8.8.8
		"2001:0:808:808::1":   false, // Teredo, server 8.8.8.8
		"::8.8.8.8":           false, // IPv4-compatible
		"::ffff:0:8.8.8.8":    false, // SIIT
		"2002:7f00:1::1":      false,
		"2001:0:7f00:1::1":    false,
		"::127.0.0.1":         false,
		"::ffff:0:127.0.0.1":  false,
		"64:ff9b:1::7f00:1":   false,
		"64:ff9b::192.0.0.9":  false,
		"64:ff9b::198.19.1.1": false,
	} {
		if got := a.permitted("x.example", netip.MustParseAddr(s)); got != want {
			t.Errorf("%s: permitted %v, want %v", s, got, want)
		}
	}
}

// TestSpecialRangesAtDial: the check runs where it matters, when the
// dispatcher dials. A listed name is accepted at job creation; what it
// resolves to at delivery is refused, and nothing is dialled. A literal
// address is never "public": it must lie in a listed prefix, at creation
// and at dial time.
func TestSpecialRangesAtDial(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	bad := []string{"64:ff9b::127.0.0.1", "2002:7f00:1::1", "2001:0:7f00:1::1", "::127.0.0.1", "::ffff:0:127.0.0.1",
		"::ffff:127.0.0.1", "0.0.0.0", "198.18.0.1", "192.0.0.170", "240.0.0.1", "fec0::1", "100.64.0.1", "224.0.0.1"}
	var ips []netip.Addr
	for _, s := range bad {
		ips = append(ips, netip.MustParseAddr(s))
	}
	a, _ := ParseAllowList("hooks.example.com")
	a = a.WithResolver(fixedResolver(ips))
	if err := a.CheckURL(ctx, "https://hooks.example.com/x"); err != nil {
		t.Fatalf("listed name refused at creation: %v", err)
	}
	if c, err := a.DialContext(ctx, "tcp", "hooks.example.com:443"); !errors.Is(err, ErrRefused) {
		if c != nil {
			c.Close()
		}
		t.Fatalf("dial of a name resolving to %v: %v, want refused", bad, err)
	}
	for _, s := range bad {
		host := netip.MustParseAddr(s)
		u, hp := "http://"+s+"/", s+":80"
		if host.Is6() {
			u, hp = "http://["+s+"]/", "["+s+"]:80"
		}
		if err := a.CheckURL(ctx, u); !errors.Is(err, ErrRefused) {
			t.Errorf("%s at creation: %v", u, err)
		}
		if c, err := a.DialContext(ctx, "tcp", hp); !errors.Is(err, ErrRefused) {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s dialled: %v", hp, err)
		}
	}
}

type fixedResolver []netip.Addr

func (r fixedResolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return r, nil
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	ip, _ := netip.AddrFromSlice(b)
	return ip
}

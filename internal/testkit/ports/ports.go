// Package ports is test support: it picks loopback TCP ports for
// processes that a test starts later, and keeps them out of the kernel's
// ephemeral range. A port in that range that was free when checked can
// be taken by any outgoing connection (a node dialling NATS, an HTTP
// client) before the process meant to listen on it binds it; the cluster
// fault test once failed in CI with "bind: address already in use" that
// way. Tests of cmd/redactd and internal/testkit/natskit import it; each
// caller draws from its own window so that packages testing in parallel
// rarely meet.
package ports

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Base picks a random base in [lo, lo+span) such that base+off is a free
// loopback port outside the ephemeral range for every off.
func Base(t testing.TB, lo, span int, offs []int) int {
	t.Helper()
	ephLo, ephHi := Ephemeral()
	for range 100 {
		base := lo + rand.IntN(span)
		if free(base, offs, ephLo, ephHi) {
			return base
		}
	}
	t.Fatalf("ports: no free range in [%d, %d) outside the ephemeral ports %d-%d", lo, lo+span, ephLo, ephHi)
	return 0
}

// free reports whether every base+off is outside [ephLo, ephHi] and can
// be listened on now.
func free(base int, offs []int, ephLo, ephHi int) bool {
	for _, off := range offs {
		port := base + off
		if port >= ephLo && port <= ephHi {
			return false
		}
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

// Ephemeral returns the kernel's range for outgoing connections' local
// ports, or Linux's default where it cannot be read.
func Ephemeral() (lo, hi int) {
	lo, hi = 32768, 60999
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return lo, hi
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return lo, hi
	}
	l, err1 := strconv.Atoi(f[0])
	h, err2 := strconv.Atoi(f[1])
	if err1 != nil || err2 != nil || l > h {
		return lo, hi
	}
	return l, h
}

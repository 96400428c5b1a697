package server_test

import (
	"fmt"
	"testing"

	"github.com/redactd/redactd/engine/jobs"
)

// TestAuthFailuresNeverDelayValidKey: a neighbour sending 200 wrong keys
// from the same address as a valid client is limited (429 past the burst)
// while the valid key, asked between each of them, gets 200 every time.
// The same holds behind a trusted reverse proxy, where every tenant
// arrives from the proxy's address and the client address comes from
// Forwarded or X-Forwarded-For; there the neighbour's failures count
// against its own forwarded address, so another client's mistyped key is
// still answered 401, not 429. From an untrusted peer those headers are
// ignored, so rotating them does not buy a fresh budget.
func TestAuthFailuresNeverDelayValidKey(t *testing.T) {
	cfg := testConfig(t)
	cfg.AuthFailRate = 1
	cfg.AuthFailBurst = 20
	cfg.TrustedProxies = "10.0.0.0/8, 127.0.0.1/32"
	e := start(t, cfg)
	good := e.key("good@example.com", jobs.PlanStandard, 10)

	run := func(name string, badHdr, goodHdr func(i int) map[string]string) {
		t.Helper()
		limited := 0
		for i := 0; i < 200; i++ {
			r := e.do("GET", "/v1/me", fmt.Sprintf("rdk_wrong%038d", i), nil, badHdr(i))
			switch r.status {
			case 401:
			case 429:
				limited++
			default:
				t.Fatalf("%s: bad key %d: status %d", name, i, r.status)
			}
			if r := e.do("GET", "/v1/me", good, nil, goodHdr(i)); r.status != 200 {
				t.Fatalf("%s: valid key after %d bad keys: status %d %s", name, i+1, r.status, r.body)
			}
		}
		if limited < 150 {
			t.Fatalf("%s: only %d of 200 bad keys limited; the limiter is not working", name, limited)
		}
	}
	none := func(int) map[string]string { return nil }
	// Same address, no proxy headers.
	run("direct", none, none)

	// Through the trusted proxy (the test's connections come from
	// 127.0.0.1): one neighbour, and valid clients at other addresses and
	// at the neighbour's own.
	xff := func(a string) func(int) map[string]string {
		return func(int) map[string]string { return map[string]string{"X-Forwarded-For": a} }
	}
	fwd := func(a string) func(int) map[string]string {
		return func(int) map[string]string { return map[string]string{"Forwarded": "for=" + a + ";proto=https"} }
	}
	run("proxy, X-Forwarded-For", xff("203.0.113.7"), xff("198.51.100.9"))
	run("proxy, Forwarded", fwd("203.0.113.8"), fwd(`"[2001:db8::1]:4711"`))
	run("proxy, neighbour's own address", xff("203.0.113.9"), xff("203.0.113.9"))
	// A hop chain: the client is the rightmost address that is not a
	// trusted proxy, so what the client itself wrote in front is ignored.
	run("proxy chain", func(i int) map[string]string {
		return map[string]string{"X-Forwarded-For": fmt.Sprintf("192.0.2.%d, 203.0.113.10, 10.1.2.3", i%250)}
	}, xff("198.51.100.10"))

	// Another client with one typo behind the same proxy: 401, not 429.
	e.do("GET", "/v1/me", "rdk_typo", nil, map[string]string{"X-Forwarded-For": "198.51.100.20"}).wantError(t, 401, "unauthorized")
}

// TestAuthFailuresUntrustedForwarded: without trusted-proxies, a client
// that rotates X-Forwarded-For still shares its real address's budget.
func TestAuthFailuresUntrustedForwarded(t *testing.T) {
	cfg := testConfig(t)
	cfg.AuthFailRate = 0.5
	cfg.AuthFailBurst = 3
	e := start(t, cfg)
	good := e.key("good2@example.com", jobs.PlanStandard, 10)
	limited := 0
	for i := 0; i < 10; i++ {
		r := e.do("GET", "/v1/me", fmt.Sprintf("rdk_x%d", i), nil, map[string]string{"X-Forwarded-For": fmt.Sprintf("192.0.2.%d", i), "Forwarded": fmt.Sprintf("for=192.0.2.%d", i)})
		if r.status == 429 {
			limited++
		}
	}
	if limited < 6 {
		t.Fatalf("%d of 10 limited: forwarded headers from an untrusted peer were believed", limited)
	}
	if r := e.do("GET", "/v1/me", good, nil, nil); r.status != 200 {
		t.Fatalf("valid key: %d", r.status)
	}
}

package webhook

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestParseAllowList(t *testing.T) {
	a, err := ParseAllowList(" hooks.example.com, 10.1.0.0/16 ,192.0.2.7,, ::1 ")
	if err != nil {
		t.Fatal(err)
	}
	if !a.Enabled() || !a.names["hooks.example.com"] || len(a.prefixes) != 3 {
		t.Fatalf("parsed %+v", a)
	}
	if off, _ := ParseAllowList(""); off.Enabled() {
		t.Fatal("empty list enabled")
	}
	for _, bad := range []string{"http://x", "a b", "-x.com", "x..y", "10.0.0.0/33", "*.example.com"} {
		if _, err := ParseAllowList(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheckURL(t *testing.T) {
	ctx := context.Background()
	a, err := ParseAllowList("hooks.example.com,127.0.0.0/8,192.0.2.7")
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{
		"https://hooks.example.com/x", "http://HOOKS.example.com.:8443/y?z=1", "http://127.0.0.1:9/",
		"http://192.0.2.7/", "http://localhost:8080/hook", // resolves (the system's hosts file) into 127.0.0.0/8
	} {
		if err := a.CheckURL(ctx, ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, c := range []struct{ url, want string }{
		{"http://10.0.0.1/", "not allowed"},
		{"https://evil.example.com/", "not allowed"},
		{"http://192.0.2.8/", "not allowed"},
		{"ftp://hooks.example.com/", "http or https"},
		{"hooks.example.com/x", "http or https"},
		{"http://user:pw@hooks.example.com/", "user info"},
		{"http://hooks.example.com/#frag", "fragment"},
		{"http:///x", "no host"},
		{"http://hooks.example.com:99999/", "bad port"},
		{"http://" + strings.Repeat("a", 3000), "longer"},
	} {
		err := a.CheckURL(ctx, c.url)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.60s: %v, want error containing %q", c.url, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "evil") {
			t.Errorf("error echoes the URL: %v", err)
		}
	}
	off, _ := ParseAllowList("")
	if err := off.CheckURL(ctx, "http://127.0.0.1/"); !errors.Is(err, ErrRefused) {
		t.Fatalf("webhooks off: %v", err)
	}
}

// TestDialRebinding: a name listed by itself may only reach public
// addresses when dialled, so "localhost" (resolving to loopback, as a
// rebound name would) is refused unless loopback is listed as a prefix.
func TestDialRebinding(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	byName, _ := ParseAllowList("localhost")
	if err := byName.CheckURL(ctx, "http://localhost:"+port+"/"); err != nil {
		t.Fatalf("a listed name is refused at creation: %v", err)
	}
	if c, err := byName.DialContext(ctx, "tcp", "localhost:"+port); !errors.Is(err, ErrRefused) {
		if c != nil {
			c.Close()
		}
		t.Fatalf("dialled loopback through a listed name: %v", err)
	}
	byPrefix, _ := ParseAllowList("localhost,127.0.0.0/8")
	c, err := byPrefix.DialContext(ctx, "tcp", "localhost:"+port)
	if err != nil {
		t.Fatalf("loopback listed as a prefix: %v", err)
	}
	c.Close()
	if _, err := byPrefix.DialContext(ctx, "tcp", "10.255.255.1:"+port); !errors.Is(err, ErrRefused) {
		t.Fatalf("an address outside the list was dialled: %v", err)
	}
}

func TestPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "2001:4860::8888": true, "127.0.0.1": false, "10.2.3.4": false, "192.168.1.1": false,
		"172.16.0.1": false, "169.254.169.254": false, "100.64.1.1": false, "0.0.0.0": false, "::1": false,
		"fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false,
	} {
		a, _ := ParseAllowList("x.example")
		if got := a.permitted("x.example", mustAddr(t, ip)); got != want {
			t.Errorf("%s: permitted %v, want %v", ip, got, want)
		}
	}
}

func TestSignVerify(t *testing.T) {
	secret := []byte("whsec_test")
	body := []byte(`{"job_id":"x"}`)
	now := time.Unix(1_800_000_000, 0)
	h := Sign(secret, now, body)
	if !strings.HasPrefix(h, "t=1800000000,v1=") || len(h) != len("t=1800000000,v1=")+64 {
		t.Fatalf("header %q", h)
	}
	if err := Verify(secret, h, body, now.Add(time.Minute), 5*time.Minute); err != nil {
		t.Fatal(err)
	}
	for name, err := range map[string]error{
		"other body":   Verify(secret, h, []byte(`{"job_id":"y"}`), now, time.Minute),
		"other secret": Verify([]byte("whsec_other"), h, body, now, time.Minute),
		"too old":      Verify(secret, h, body, now.Add(time.Hour), 5*time.Minute),
		"no v1":        Verify(secret, "t=1800000000", body, now, time.Minute),
		"other t":      Verify(secret, strings.Replace(h, "t=1800000000", "t=1800000001", 1), body, now, time.Minute),
	} {
		if err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

func TestBackoff(t *testing.T) {
	d := &Dispatcher{opts: Options{RetryBase: 10 * time.Second}}
	for n, lo := range map[int]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 4: 80 * time.Second, 20: time.Hour} {
		for range 50 {
			got := d.backoff(n)
			if got < lo || got > lo+lo/2 {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, got, lo, lo+lo/2)
			}
		}
	}
}

func mustAddr(t *testing.T, s string) netip.Addr {
	t.Helper()
	a, err := netip.ParseAddr(s)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

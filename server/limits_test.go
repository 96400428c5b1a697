package server_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
)

// dial opens a raw connection to the server.
func (e *env) dial() net.Conn {
	e.t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { c.Close() })
	return c
}

// TestExpectContinue: with Expect: 100-continue the server answers 100
// only after the key (or the upload token) and the declared size passed;
// otherwise the final error comes first and the body is never asked for.
func TestExpectContinue(t *testing.T) {
	cfg := testConfig(t)
	e := start(t, cfg)
	key := e.key("expect@example.com", jobs.PlanStandard, 100)
	pdf := samplePDF(1)
	res := e.init(key, [2]string{"big.pdf", pdf})
	up := strings.TrimPrefix(res.Uploads[0].UploadURL, e.url)
	docPath, _, _ := strings.Cut(up, "?")

	refused := []struct {
		name, req string
		status    int
	}{
		{"no key", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n", 401},
		{"wrong key", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: rdk_wrong\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\nExpect: 100-continue\r\n\r\n", 401},
		{"too large", fmt.Sprintf("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", key, cfg.MaxRequestBytes+1), 413},
		{"init too large", fmt.Sprintf("POST /v1/jobs/init HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", key, 5<<20), 413},
		{"upload, forged token", "PUT " + docPath + "?token=AAAA HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n", 401},
		{"upload, no token", "PUT " + docPath + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n", 401},
		{"upload too large", fmt.Sprintf("PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", up, cfg.MaxUploadBytes+1), 413},
		{"ambiguous framing", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n", 400},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			conn := e.dial()
			io.WriteString(conn, c.req)
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			br := bufio.NewReader(conn)
			r, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			b, _ := io.ReadAll(r.Body)
			if r.StatusCode != c.status {
				t.Fatalf("first answer %d %s, want %d before any 100 Continue", r.StatusCode, b, c.status)
			}
			checkErrorBody(t, c.name, rawResp{status: r.StatusCode, header: r.Header, body: b})
		})
	}

	// Accepted: 100 first, then the body, then the final answer.
	accepted := func(name, head string, body []byte, want int) {
		conn := e.dial()
		io.WriteString(conn, head)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		line, err := br.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
			t.Fatalf("%s: first line %q (%v), want 100 Continue", name, line, err)
		}
		if l, _ := br.ReadString('\n'); l != "\r\n" {
			t.Fatalf("%s: after 100: %q", name, l)
		}
		conn.Write(body)
		r, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := io.ReadAll(r.Body)
		if r.StatusCode != want {
			t.Fatalf("%s: %d %s, want %d", name, r.StatusCode, b, want)
		}
	}
	ct, body := form{files: [][2]string{{"a.pdf", pdf}}}.encode(t)
	accepted("multipart", fmt.Sprintf("POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", key, ct, len(body)), body, 200)
	accepted("upload", fmt.Sprintf("PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", up, len(pdf)), []byte(pdf), 201)
}

// TestHeaderReadTimeout: a connection that sends no request, or stops in
// the middle of its headers, is closed after header-read-timeout, while a
// body that arrives slower than that (but within the body timeout) is
// still read.
func TestHeaderReadTimeout(t *testing.T) {
	cfg := testConfig(t)
	cfg.HeaderReadTimeout = time.Second
	e := start(t, cfg)
	key := e.key("slow@example.com", jobs.PlanStandard, 100)
	closedWithin := func(name string, conn net.Conn, limit time.Duration) {
		t.Helper()
		conn.SetReadDeadline(time.Now().Add(limit))
		_, err := io.ReadAll(conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: connection still open after %v with a %v header timeout", name, limit, cfg.HeaderReadTimeout)
		}
	}
	closedWithin("silent", e.dial(), 5*time.Second)
	half := e.dial()
	io.WriteString(half, "GET /v1/me HTTP/1.1\r\nHost: x\r\n")
	closedWithin("half a header", half, 5*time.Second)

	// Keep-alive: after one answer, a silent connection waits for the idle
	// timeout (2 min), not the header timeout: checked only as "still open
	// after twice the header timeout".
	ka := e.dial()
	io.WriteString(ka, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(ka)
	if r, err := http.ReadResponse(br, nil); err != nil || r.StatusCode != 200 {
		t.Fatalf("keep-alive request: %v", err)
	} else {
		io.ReadAll(r.Body)
	}
	time.Sleep(2 * cfg.HeaderReadTimeout)
	io.WriteString(ka, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	ka.SetReadDeadline(time.Now().Add(5 * time.Second))
	if r, err := http.ReadResponse(br, nil); err != nil || r.StatusCode != 200 {
		t.Fatalf("idle keep-alive connection closed by the header timeout: %v", err)
	}

	// A slow body: headers at once, the body in two halves 2 s apart.
	ct, body := form{files: [][2]string{{"a.pdf", samplePDF(1)}}}.encode(t)
	slow := e.dial()
	fmt.Fprintf(slow, "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nX-API-Key: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n", key, ct, len(body))
	slow.Write(body[:len(body)/2])
	time.Sleep(2 * cfg.HeaderReadTimeout)
	slow.Write(body[len(body)/2:])
	slow.SetReadDeadline(time.Now().Add(30 * time.Second))
	r, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("slow body: %v %v", r, err)
	}
}

// TestConnCapPerAddress: past max-conns-per-address open connections from
// one address, a further one is answered 429 with the error body and
// closed; once one closes, a new one is served.
func TestConnCapPerAddress(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxConnsPerAddress = 4
	e := start(t, cfg)
	var held []net.Conn
	for i := 0; i < cfg.MaxConnsPerAddress; i++ {
		c := e.dial()
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if r, err := http.ReadResponse(bufio.NewReader(c), nil); err != nil || r.StatusCode != 200 {
			t.Fatalf("connection %d: %v", i, err)
		}
		held = append(held, c)
	}
	over := e.dial()
	io.WriteString(over, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
	over.SetReadDeadline(time.Now().Add(5 * time.Second))
	r, err := http.ReadResponse(bufio.NewReader(over), nil)
	if err != nil {
		t.Fatalf("over the cap: %v", err)
	}
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != 429 {
		t.Fatalf("connection %d from one address: %d, want 429", cfg.MaxConnsPerAddress+1, r.StatusCode)
	}
	checkErrorBody(t, "over the cap", rawResp{status: r.StatusCode, header: r.Header, body: b})
	held[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := e.dial()
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		r, err := http.ReadResponse(bufio.NewReader(c), nil)
		c.Close()
		if err == nil && r.StatusCode == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no connection served after one closed: %v %v", r, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestRateLimitLogSampled: a polling storm past the key's rate limit and
// wrong keys past the failure limit are answered 429 every time, counted
// in redactd_rate_limited_total, but logged at most once per second per
// key and per client address.
func TestRateLimitLogSampled(t *testing.T) {
	cfg := testConfig(t)
	cfg.RateLimit = 1
	cfg.RateBurst = 1
	cfg.AuthFailRate = 1
	cfg.AuthFailBurst = 1
	e := start(t, cfg)
	key := e.key("storm@example.com", jobs.PlanStandard, 10)
	count := func(limit string) float64 {
		m := regexp.MustCompile(`redactd_rate_limited_total\{limit="` + limit + `"\} (\d+)`).FindStringSubmatch(e.metrics())
		if m == nil {
			return 0
		}
		n, _ := strconv.ParseFloat(m[1], 64)
		return n
	}
	keyBefore, authBefore := count("key"), count("auth_failures")
	start := time.Now()
	var limited, authLimited int
	for i := 0; i < 300; i++ {
		if e.do("GET", "/v1/me", key, nil, nil).status == 429 {
			limited++
		}
		if e.do("GET", "/v1/me", "rdk_storm", nil, nil).status == 429 {
			authLimited++
		}
	}
	secs := int(time.Since(start)/time.Second) + 1
	if limited < 250 || authLimited < 250 {
		t.Fatalf("only %d and %d of 300 limited", limited, authLimited)
	}
	lines := 0
	for _, l := range strings.Split(e.logs.String(), "\n") {
		if strings.Contains(l, `"status":429`) {
			lines++
		}
	}
	if max := 2 * (secs + 1); lines > max {
		t.Fatalf("%d log lines for %d + %d answers 429 in %d s; want at most %d (one per second per key and per address)", lines, limited, authLimited, secs, max)
	}
	if lines == 0 {
		t.Fatal("no 429 logged at all")
	}
	if got := count("key") - keyBefore; got != float64(limited) {
		t.Fatalf("redactd_rate_limited_total{limit=key} rose by %v, want %d", got, limited)
	}
	if got := count("auth_failures") - authBefore; got != float64(authLimited) {
		t.Fatalf("redactd_rate_limited_total{limit=auth_failures} rose by %v, want %d", got, authLimited)
	}
}

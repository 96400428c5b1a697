package server_test

// Request smuggling: requests whose framing two HTTP parsers could read
// differently, each carrying a second request hidden where a parser that
// disagreed with redactd would find it. They go byte for byte over a real
// TCP connection to a real listener, and must get one 400 with the spec's
// error body, the connection closed after it, and the hidden request never
// processed (no answer for it, no access-log line).

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// smuggled is the hidden request: its X-Request-Id shows in the access log
// if the server ever handles it.
const smuggled = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-Id: smuggled-request\r\n\r\n"

// framingCases are ambiguous framings, each followed by the hidden request.
var framingCases = []struct{ name, req string }{
	{"content-length and chunked", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled},
	{"chunked before content-length", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 60\r\n\r\n0\r\n\r\n" + smuggled},
	{"content-length and identity", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n" + smuggled},
	{"transfer-encoding identity", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: identity\r\n\r\n" + smuggled},
	{"transfer-encoding gzip", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n" + smuggled},
	{"transfer-encoding gzip, chunked", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + smuggled},
	{"bare LF ends a header line", "POST /v1/jobs HTTP/1.1\r\nHost: x\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n" + smuggled},
	{"bare LF after transfer-encoding", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\n\r\n0\r\n\r\n" + smuggled},
	{"bare LF ends the header block", "GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\n" + smuggled},
	{"obs-fold in content-length", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n 2\r\n\r\n1234" + smuggled},
	{"obs-fold in another header", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\r\n b\r\nContent-Length: 0\r\n\r\n" + smuggled},
	{"duplicate content-length, different values", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 60\r\n\r\n1234" + smuggled},
	{"duplicate content-length, same values", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nContent-Length: 4\r\n\r\n1234" + smuggled},
	{"content-length list", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 4, 4\r\n\r\n1234" + smuggled},
	{"space before the colon", "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\nContent-Length: 4\r\n\r\n1234" + smuggled},
}

// TestRequestSmuggling: every ambiguous framing gets one 400 with the
// spec's error body and a closed connection; the hidden request is never
// answered nor logged. A well-framed request with a body still works and
// keeps its connection open.
func TestRequestSmuggling(t *testing.T) {
	e := start(t, testConfig(t))
	for _, c := range framingCases {
		t.Run(c.name, func(t *testing.T) {
			answers, closed := exchange(t, e, c.req)
			if len(answers) != 1 {
				t.Fatalf("%d answers, want 1 (statuses %v): the hidden request was processed", len(answers), statuses(answers))
			}
			if answers[0].status != 400 {
				t.Fatalf("status %d, want 400; body %s", answers[0].status, answers[0].body)
			}
			checkErrorBody(t, c.name, answers[0])
			if !closed {
				t.Fatal("connection left open after an ambiguous framing")
			}
		})
	}
	// The hidden request's id must appear in no log line.
	time.Sleep(100 * time.Millisecond)
	if strings.Contains(e.logs.String(), "smuggled-request") {
		t.Fatalf("the hidden request was handled: %s", lineWith(e.logs.String(), "smuggled-request"))
	}
	// Control: well-framed requests on one connection, with a body, are
	// each answered and the connection stays usable.
	ok := "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc" +
		"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" +
		"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
	answers, _ := exchange(t, e, ok)
	if got := statuses(answers); len(got) != 3 || got[0] != 401 || got[1] != 200 || got[2] != 200 {
		t.Fatalf("well-framed pipeline: statuses %v, want [401 200 200]", got)
	}
	// A chunked body alone is fine (the unread rest closes the connection,
	// as any body left unread does).
	answers, _ = exchange(t, e, "POST /v1/jobs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
	if got := statuses(answers); len(got) != 1 || got[0] != 401 {
		t.Fatalf("chunked request: statuses %v, want [401]", got)
	}
}

// exchange writes raw on a fresh connection and reads every answer until
// the server closes it or stays silent for two seconds; closed reports
// whether the server closed the connection.
func exchange(t *testing.T, e *env, raw string) (answers []rawResp, closed bool) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, raw); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	for {
		conn.SetReadDeadline(time.Now().Add(2 * time.Second))
		res, err := http.ReadResponse(br, nil)
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return answers, false
			}
			return answers, true // EOF or reset: the server closed it
		}
		b, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("reading an answer's body: %v", err)
		}
		answers = append(answers, rawResp{status: res.StatusCode, header: res.Header, body: b})
		if res.Close {
			// The server said it closes; check it really does.
			conn.SetReadDeadline(time.Now().Add(2 * time.Second))
			n, err := br.Read(make([]byte, 1))
			var ne net.Error
			if n > 0 || (errors.As(err, &ne) && ne.Timeout()) {
				return answers, false
			}
			return answers, true
		}
	}
}

func statuses(rs []rawResp) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.status)
	}
	return out
}

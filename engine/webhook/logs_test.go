package webhook

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/internal/testkit/testlog"
)

// memStore is a Store in memory that records each delivery's fate.
type memStore struct {
	mu      sync.Mutex
	pending map[string]Delivery
	outcome map[string]string // "delivered", "dropped" or "retry"
}

func newMemStore(ds ...Delivery) *memStore {
	s := &memStore{pending: map[string]Delivery{}, outcome: map[string]string{}}
	for _, d := range ds {
		s.pending[d.JobID] = d
	}
	return s
}

func (s *memStore) Due(time.Time) ([]Delivery, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var due []Delivery
	for id, d := range s.pending {
		if s.outcome[id] == "" {
			due = append(due, d)
		}
	}
	return due, len(s.pending), nil
}

func (s *memStore) Payload(jobID string) ([]byte, []byte, error) {
	return []byte(`{"job_id":"` + jobID + `"}`), []byte("whsec_test"), nil
}

func (s *memStore) set(jobID, outcome string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outcome[jobID] = outcome
	return nil
}

func (s *memStore) Delivered(jobID string) error { return s.set(jobID, "delivered") }
func (s *memStore) Dropped(jobID string) error   { return s.set(jobID, "dropped") }
func (s *memStore) Retry(jobID string, _ int, _ time.Time) error {
	return s.set(jobID, "retry")
}

func (s *memStore) done() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.outcome) == len(s.pending)
}

// TestLogsNameNoHost: failed deliveries are logged with a kind of
// failure ("dns", "connection refused", "tls", "status 500", ...), never
// with the error's text, which names the host (*net.DNSError), the address
// and port (*net.OpError) or the URL (*url.Error). Once with retries
// ("webhook attempt failed") and once given up at once ("webhook
// dropped").
func TestLogsNameNoHost(t *testing.T) {
	// A closed port on loopback: connection refused.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, closedPort, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer status.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	tlsSrv.Config.ErrorLog = stdlog.New(io.Discard, "", 0) // "TLS handshake error" is expected
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // so the server notices when the client hangs up
		<-r.Context().Done()
	}))
	defer hang.Close()
	_, statusPort, _ := net.SplitHostPort(strings.TrimPrefix(status.URL, "http://"))
	_, hangPort, _ := net.SplitHostPort(strings.TrimPrefix(hang.URL, "http://"))
	_, tlsPort, _ := net.SplitHostPort(strings.TrimPrefix(tlsSrv.URL, "https://"))

	const token = "tok-Zq81vX"
	cases := []struct{ job, url, failure string }{
		{"job-dns", "https://no-such-host.invalid/hook?token=" + token, "dns"},
		{"job-refused", "http://localhost:" + closedPort + "/hook?token=" + token, "connection refused"},
		{"job-status", "http://localhost:" + statusPort + "/hook?token=" + token, "status 500"},
		{"job-timeout", "http://localhost:" + hangPort + "/hook?token=" + token, "timeout"},
		{"job-tls", "https://localhost:" + tlsPort + "/hook?token=" + token, "tls"},                     // a certificate no one trusts
		{"job-notallowed", "http://10.255.255.1:" + closedPort + "/hook?token=" + token, "not allowed"}, // outside the list
	}
	// What must never be logged: host names, addresses, ports, paths.
	secrets := []string{"no-such-host", ".invalid", "localhost", "127.0.0.1", "10.255.255.1", closedPort, statusPort, hangPort, tlsPort, "/hook", token}

	for _, retryFor := range []time.Duration{time.Hour, 0} {
		var ds []Delivery
		for _, c := range cases {
			ds = append(ds, Delivery{JobID: c.job, URL: c.url, FirstAt: time.Now()})
		}
		store := newMemStore(ds...)
		allow, err := ParseAllowList("no-such-host.invalid,localhost,127.0.0.0/8")
		if err != nil {
			t.Fatal(err)
		}
		logs := &testlog.Buffer{}
		log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		d, err := New(store, allow, Options{Workers: len(cases), Timeout: 2 * time.Second, RetryBase: time.Hour, RetryFor: retryFor, Poll: 10 * time.Millisecond}, log)
		if err != nil {
			t.Fatal(err)
		}
		d.Start()
		deadline := time.Now().Add(20 * time.Second)
		for !store.done() {
			if time.Now().After(deadline) {
				d.Close()
				t.Fatalf("deliveries not all attempted: %v", store.outcome)
			}
			time.Sleep(10 * time.Millisecond)
		}
		d.Close()

		out := logs.String()
		t.Logf("logs:\n%s", out)
		msg := "webhook attempt failed"
		if retryFor == 0 {
			msg = "webhook dropped"
		}
		got := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("log line %q: %v", line, err)
			}
			if rec["msg"] == msg {
				got[rec["job"].(string)], _ = rec["failure"].(string)
			}
		}
		for _, c := range cases {
			if got[c.job] != c.failure {
				t.Errorf("%s: %q logged as failure %q, want %q", msg, c.job, got[c.job], c.failure)
			}
		}
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("the logs carry %q:\n%s", s, out)
			}
		}
	}
}

// TestFailureKinds: each kind of error a delivery meets, wrapped as
// net/http wraps it, gives its kind and nothing of its text.
func TestFailureKinds(t *testing.T) {
	wrap := func(err error) error {
		return &url.Error{Op: "Post", URL: "https://secret.example:8443/hook?token=secret", Err: err}
	}
	op := func(err error) error {
		return &net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(203, 0, 113, 9), Port: 8443}, Err: &os.SyscallError{Syscall: "connect", Err: err}}
	}
	for want, err := range map[string]error{
		"dns":                wrap(&net.DNSError{Err: "no such host", Name: "secret.example", IsNotFound: true}),
		"connection refused": wrap(op(syscall.ECONNREFUSED)),
		"connection reset":   wrap(op(syscall.ECONNRESET)),
		"unreachable":        wrap(op(syscall.EHOSTUNREACH)),
		"timeout":            wrap(context.DeadlineExceeded),
		"tls":                wrap(x509.HostnameError{Certificate: &x509.Certificate{DNSNames: []string{"secret.example"}}, Host: "secret.example"}),
		"connection closed":  wrap(io.ErrUnexpectedEOF),
		"not allowed":        fmt.Errorf("%w: no permitted address", ErrRefused),
		"status 503":         statusError{503},
		"bad url":            errBadURL,
		"other":              wrap(errors.New("something about secret.example")),
	} {
		if got := failure(err); got != want {
			t.Errorf("failure(%v) = %q, want %q", err, got, want)
		}
	}
}

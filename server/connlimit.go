package server

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// capListener admits at most max open connections per client address
// (the TCP peer; trusted proxies, which carry every tenant, are exempt).
// A connection past the cap is answered 429 with the spec's error body
// and closed at once, before fasthttp reads from it, so one address
// cannot hold all of the server's connections.
type capListener struct {
	net.Listener
	max     int
	proxies proxies
	metrics *httpMetrics

	mu   sync.Mutex
	open map[netip.Addr]int
}

func newCapListener(ln net.Listener, max int, ps proxies, m *httpMetrics) net.Listener {
	if max <= 0 {
		return ln
	}
	return &capListener{Listener: ln, max: max, proxies: ps, metrics: m, open: map[netip.Addr]int{}}
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
		if err != nil {
			return c, nil // not TCP: no address to count
		}
		a := ap.Addr().Unmap()
		if l.proxies.trusted(a) {
			return c, nil
		}
		l.mu.Lock()
		if l.open[a] >= l.max {
			l.mu.Unlock()
			l.metrics.limited("connections")
			go refuseConn(c, l.metrics)
			continue
		}
		l.open[a]++
		l.mu.Unlock()
		return &cappedConn{Conn: c, release: func() { l.release(a) }}, nil
	}
}

func (l *capListener) release(a netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[a]--; l.open[a] <= 0 {
		delete(l.open, a)
	}
}

// cappedConn gives its slot back once, on the first Close.
type cappedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *cappedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// refuseConn answers a connection over the cap with 429 and closes it.
func refuseConn(c net.Conn, m *httpMetrics) {
	defer c.Close()
	id := newRequestID()
	b, _ := json.Marshal(errorBody{Error: "Too many connections from this address", Code: CodeRateLimited, RequestID: id})
	b = append(b, '\n')
	c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\nServer: redactd\r\nContent-Type: application/json\r\nContent-Length: %d\r\nRetry-After: 1\r\nX-Request-Id: %s\r\nConnection: close\r\n\r\n%s", len(b), id, b)
	// The deferred Close lingers (lingerConn): the client reads the
	// answer before the connection goes.
	m.answered("unparsed", http.StatusTooManyRequests, CodeRateLimited, -1)
}

package server

import (
	"io"
	"net"
	"sync"
	"time"
)

// Closing a TCP socket with data from the client still unread makes the
// kernel send a reset, and a reset that reaches the client before it has
// read the server's last answer discards that answer: a client uploading
// 100 MB to a bad key sees "connection reset by peer" instead of the
// spec's 401 body. The server does close such connections (drain: an
// early answer must not wait for the rest of a large body), so every
// connection it accepts closes the way net/http's server does after such
// an answer: its own side first (a FIN after the answer), then it reads
// and discards what the client still sends, for at most lingerTime and
// lingerBytes, and only then closes.
const (
	lingerTime  = time.Second
	lingerBytes = 64 << 20
)

// lingerListener wraps every accepted connection in a lingerConn.
type lingerListener struct{ net.Listener }

func (l lingerListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if _, ok := c.(halfCloser); !ok {
		return c, nil
	}
	return &lingerConn{Conn: c}, nil
}

// halfCloser is a connection that can close its writing side alone
// (*net.TCPConn, *net.UnixConn).
type halfCloser interface{ CloseWrite() error }

// lingerConn closes lingering (see above). Close returns at once; the
// socket is closed by a goroutine within lingerTime.
type lingerConn struct {
	net.Conn
	once sync.Once
}

func (c *lingerConn) Close() error {
	var err error
	c.once.Do(func() {
		if err = c.Conn.(halfCloser).CloseWrite(); err != nil {
			c.Conn.Close() // not connected any more: nothing to linger for
			return
		}
		go linger(c.Conn)
	})
	return err
}

// linger discards what the peer still sends on c, within lingerTime and
// lingerBytes, and closes c.
func linger(c net.Conn) {
	defer c.Close()
	if c.SetReadDeadline(time.Now().Add(lingerTime)) != nil {
		return
	}
	io.Copy(io.Discard, io.LimitReader(c, lingerBytes))
}

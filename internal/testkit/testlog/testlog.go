// Package testlog is test support: a log sink that many goroutines may
// write to while a test reads what was logged (engine, pipeline and server
// tests scan logs for secrets and personal data).
package testlog

import (
	"bytes"
	"sync"
)

// Buffer collects log output; it is safe for concurrent use.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

package server

import (
	"crypto/rand"
	"encoding/hex"
)

// maxRequestID is the longest incoming X-Request-Id accepted as is.
const maxRequestID = 64

// requestID returns the incoming id when it is sane (1..64 characters of
// [A-Za-z0-9_-]), so a caller's or proxy's correlation id carries through;
// anything else is replaced by a fresh random id, which keeps hostile
// values out of logs and headers.
func requestID(incoming []byte) string {
	if validRequestID(incoming) {
		return string(incoming)
	}
	return newRequestID()
}

func validRequestID(b []byte) bool {
	if len(b) == 0 || len(b) > maxRequestID {
		return false
	}
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

// newRequestID returns 128 random bits as 32 hex digits.
func newRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(b[:])
}

package store

import (
	"fmt"
	"strings"
)

// MaxKeyLen bounds Docs and Blobs keys, in bytes.
const MaxKeyLen = 512

// CheckDocKey returns an error wrapping ErrInvalidKey unless key is a
// Docs key: non-empty dot-separated tokens of letters, digits, '-', '_'
// and '='. Both engines apply this one rule, so a key that works on one
// node works on a cluster (it is the NATS KV key rule without the
// wildcards and the leading "_" of system buckets).
func CheckDocKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	for tok := range strings.SplitSeq(key, ".") {
		if tok == "" || !allOf(tok, "-_=") {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
	}
	return nil
}

// CheckPrefix accepts a Keys prefix: "" or a Docs key followed by '.'.
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if !strings.HasSuffix(prefix, ".") || CheckDocKey(strings.TrimSuffix(prefix, ".")) != nil {
		return fmt.Errorf("%w: prefix %q", ErrInvalidKey, prefix)
	}
	return nil
}

// CheckBlobKey returns an error wrapping ErrInvalidKey unless key is a
// Blobs key: '/'-separated segments of letters, digits, '-', '_' and '.',
// none starting with '.', so a key can never leave a blob directory nor
// name a backend's temporary or hidden files.
func CheckBlobKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return fmt.Errorf("%w: %q", ErrInvalidKey, key)
	}
	for seg := range strings.SplitSeq(key, "/") {
		if seg == "" || seg[0] == '.' || !allOf(seg, "-_.") {
			return fmt.Errorf("%w: %q", ErrInvalidKey, key)
		}
	}
	return nil
}

func allOf(s, extra string) bool {
	for _, c := range []byte(s) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(extra, c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

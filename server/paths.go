package server

import (
	"strings"
)

// Paths. fasthttp decodes a request's path and then normalises it: it
// resolves dot segments, also ones it decoded from %2e, and it decodes %2F
// into a slash before doing so, so /v1/..%2Fmetrics reached /metrics.
// redactd routes on exactly what the client sent, decoded once: a target
// whose decoding would be read differently by anything else on the way (a
// proxy that matches /v1/ on the raw form, a log reader) is refused with
// 400 before routing and authentication, not normalised. The ids and
// literals of every route are plain segments, so no legitimate request
// needs any of what is refused.

// errPath is the answer to a target that checkPath refuses.
var errPath = invalidf("path", "encoded slashes, backslashes, NUL, dot segments and empty segments are not allowed")

// checkPath checks the raw path of a request target (before '?') and the
// path fasthttp made of it: each segment decodes to a name that is not
// empty, "." or "..", holds no slash, backslash or NUL and has no bad
// percent escape, and the decoded segments joined by '/' are the path
// fasthttp routes on, so its normalisation changed nothing.
func checkPath(raw, routed string) error {
	if raw == "" || raw[0] != '/' {
		return errPath
	}
	if raw == "/" && routed == "/" {
		return nil // no route, but nothing to escape either: 404
	}
	var b strings.Builder
	for _, seg := range strings.Split(raw[1:], "/") {
		name, ok := unescapeSegment(seg)
		if !ok || name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
			return errPath
		}
		b.WriteByte('/')
		b.WriteString(name)
	}
	if b.String() != routed {
		return errPath
	}
	return nil
}

// unescapeSegment decodes the percent escapes of one path segment; ok is
// false for a malformed escape.
func unescapeSegment(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			out = append(out, s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := unhex(s[i+1])
		lo, ok2 := unhex(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		out = append(out, hi<<4|lo)
		i += 2
	}
	return string(out), true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

package server

import (
	"bytes"

	"github.com/valyala/fasthttp"
)

// Request framing. fasthttp (pinned at v1.74.0) is lenient where RFC 9112
// lets a server be: it reads a request carrying both Content-Length and
// Transfer-Encoding: chunked as chunked and keeps the connection, accepts
// Transfer-Encoding: identity, takes a bare LF as a line end (also as the
// blank line that ends the header block, after which it looks for CRLF CRLF
// further on) and joins obs-folded lines. A proxy in front that reads the
// same bytes the other way would see a different number of requests on
// the connection: request smuggling. redactd is stricter than both: a
// request whose framing anyone could read two ways is refused with 400 and
// its connection closed, so nothing after it on that connection is read.
//
// fasthttp refuses by itself (ErrorHandler, connection closed) duplicate
// Content-Length headers, non-numeric or list-valued ones, an obs-fold
// inside Content-Length, Transfer-Encoding codings other than chunked and
// identity, Transfer-Encoding on HTTP/1.0 and a space before a colon.
// checkFraming covers what it lets through, on the raw header block it
// keeps (RequestHeader.RawHeaders), before routing, authentication or any
// read of the body.

// errFraming is the answer to an ambiguously framed request.
var errFraming = invalidf("request", "ambiguous message framing (RFC 9112 section 6.3)")

var (
	hdrContentLength    = []byte("content-length")
	hdrTransferEncoding = []byte("transfer-encoding")
	codingChunked       = []byte("chunked")
)

// checkFraming reports whether the header block h was read from frames
// exactly one request: every line ends in CRLF, no line is folded, at
// most one Content-Length, and Transfer-Encoding, when present, is exactly
// "chunked" with no Content-Length beside it.
func checkFraming(h *fasthttp.RequestHeader) error {
	raw := h.RawHeaders()
	var cl, te int
	chunked := true
	for len(raw) > 0 {
		i := bytes.IndexByte(raw, '\n')
		if i < 0 {
			return errFraming // cannot happen: fasthttp keeps whole lines
		}
		line := raw[:i]
		raw = raw[i+1:]
		if len(line) == 0 || line[len(line)-1] != '\r' {
			return errFraming // a bare LF
		}
		line = line[:len(line)-1]
		if len(line) == 0 {
			break // the blank line that ends the block
		}
		if line[0] == ' ' || line[0] == '\t' {
			return errFraming // obs-fold
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			return errFraming
		}
		switch {
		case bytes.EqualFold(name, hdrContentLength):
			cl++
		case bytes.EqualFold(name, hdrTransferEncoding):
			te++
			chunked = chunked && bytes.EqualFold(bytes.Trim(value, " \t"), codingChunked)
		}
	}
	if len(raw) > 0 || cl > 1 || te > 1 || (te == 1 && (cl > 0 || !chunked)) {
		return errFraming
	}
	return nil
}

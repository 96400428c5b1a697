// Package hostile generates, in memory and from code, a corpus of hostile
// inputs for hardening tests: broken, malicious or resource-exhausting
// documents (truncated and cyclic PDFs, decompression bombs, images that
// claim billions of pixels, polyglots) and hostile HTTP requests (path
// traversal in file names, header injection, thousands of multipart
// parts, non-UTF-8 JSON).
//
// Each Case names the path it targets and the outcome the service must
// reach: the document ends redacted with a clean output, the document
// ends in error with a message a caller can act on, or the request is
// refused with a 4xx. Nothing is downloaded and nothing is read from
// disk, so the corpus is the same on every machine; large inputs are
// produced by a generator so that a test streams them instead of holding
// them.
//
// The package is meant for tests (the pipeline's and the server's) but
// lives outside _test files so that several packages can share it.
package hostile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/config"
)

// Path is a way hostile bytes reach the service. A Case's Paths is a set.
type Path uint8

const (
	// Multipart: the bytes are one file part of POST /v1/jobs.
	Multipart Path = 1 << iota
	// Direct: the bytes are the body of a direct-upload PUT (after
	// POST /v1/jobs/init reserved Size bytes), then committed.
	Direct
	// Request: the case is a whole HTTP request (method, target,
	// headers, body) whose hostility is in the request itself.
	Request
)

func (p Path) String() string {
	var s []string
	for _, x := range []struct {
		p    Path
		name string
	}{{Multipart, "multipart"}, {Direct, "direct"}, {Request, "request"}} {
		if p&x.p != 0 {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, "|")
}

// Outcome is the class of result a case must reach.
type Outcome uint8

const (
	// Redacted: the document ends redacted and its output passes
	// pdfout.Verify; Expect.Pages, when not 0, is its page count.
	Redacted Outcome = iota + 1
	// Failed: the document ends in error and its error_message (the
	// jobs.UserMessage of the processor's error) contains
	// Expect.Message. It is never the generic internal message.
	Failed
	// Rejected: the request is answered with status Expect.Status (4xx)
	// and its Error body's message contains Expect.Message (when not
	// empty: a refusal by the HTTP parser itself has no JSON body).
	Rejected
	// Accepted: the request is accepted (2xx) and every file name the
	// service echoes back passes CheckFileName.
	Accepted
)

func (o Outcome) String() string {
	switch o {
	case Redacted:
		return "redacted"
	case Failed:
		return "error"
	case Rejected:
		return "rejected"
	case Accepted:
		return "accepted"
	}
	return "unknown"
}

// Expect is the outcome a case must reach.
type Expect struct {
	Outcome Outcome
	// Message is a substring of the document's error_message (Failed) or
	// of the Error body's message (Rejected).
	Message string
	// Status is the HTTP status of a rejection.
	Status int
	// Pages is the page count of a redacted document, 0 if not checked.
	Pages int
}

func (e Expect) String() string {
	switch e.Outcome {
	case Redacted:
		if e.Pages > 0 {
			return fmt.Sprintf("redacted (%d pages)", e.Pages)
		}
		return "redacted"
	case Failed:
		return fmt.Sprintf("error %q", e.Message)
	case Rejected:
		return fmt.Sprintf("%d %q", e.Status, e.Message)
	}
	return e.Outcome.String()
}

func redacted(pages int) Expect { return Expect{Outcome: Redacted, Pages: pages} }
func failed(msg string) Expect  { return Expect{Outcome: Failed, Message: msg} }
func rejected(status int, msg string) Expect {
	return Expect{Outcome: Rejected, Status: status, Message: msg}
}

// Case is one hostile input.
type Case struct {
	// Name is unique in the corpus and safe as a test name.
	Name string
	// Paths are the ways the case is meant to reach the service.
	Paths Path
	// Long marks cases too slow or too large for the default test run
	// (run them behind a -long flag).
	Long bool
	// Note says in a line what is hostile about the case.
	Note string

	// Request-level cases: the request line and the headers, in order.
	// Header values may hold CR, LF or NUL on purpose; see WriteRequest.
	Method, Target string
	Header         [][2]string

	data   []byte
	build  func() []byte // makes data on first use, for costly cases
	once   sync.Once
	gen    func(io.Writer) error
	size   int64  // a generated case's length
	head   []byte // a generated case's first KiB
	want   Expect
	wantFn func(config.Config) Expect
}

// Document reports whether the case is a file (Multipart or Direct),
// whose processing outcome Expect describes.
func (c *Case) Document() bool { return c.Paths&(Multipart|Direct) != 0 }

// Expect is the outcome of processing the case's bytes as a document
// under cfg: what the pipeline's Process must return. For a Request case
// it is the outcome of sending the request.
func (c *Case) Expect(cfg config.Config) Expect {
	if c.wantFn != nil {
		return c.wantFn(cfg)
	}
	return c.want
}

// ExpectVia is the outcome through path p: an upload-time rejection on
// that path, or else the processing outcome.
func (c *Case) ExpectVia(p Path, cfg config.Config) Expect {
	if c.Document() {
		if e, ok := c.uploadRejects(cfg)[p]; ok {
			return e
		}
	}
	return c.Expect(cfg)
}

// Bytes returns the case's bytes, building them on first use. For a
// generated case this holds them all in memory (Size bytes); prefer
// WriteTo or Open for those.
func (c *Case) Bytes() []byte {
	if c.gen == nil {
		return c.held()
	}
	var b bytes.Buffer
	b.Grow(int(c.size))
	if err := c.gen(&b); err != nil {
		panic(fmt.Sprintf("hostile: %s: generator failed writing to memory: %v", c.Name, err))
	}
	return b.Bytes()
}

// held returns the bytes of a case that is not generated.
func (c *Case) held() []byte {
	c.once.Do(func() {
		if c.build != nil {
			c.data = c.build()
			c.build = nil
		}
	})
	return c.data
}

// Size is the length of the case's bytes.
func (c *Case) Size() int64 {
	if c.gen != nil {
		return c.size
	}
	return int64(len(c.held()))
}

// Generated reports whether the bytes come from a generator rather than
// being held by the case.
func (c *Case) Generated() bool { return c.gen != nil }

// WriteTo writes the case's bytes to w, streaming generated ones.
func (c *Case) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	var err error
	if c.gen != nil {
		err = c.gen(cw)
	} else {
		_, err = cw.Write(c.held())
	}
	return cw.n, err
}

// Open returns a reader of the case's bytes; generated bytes are
// produced as they are read.
func (c *Case) Open() io.ReadCloser {
	if c.gen == nil {
		return io.NopCloser(bytes.NewReader(c.held()))
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(c.gen(pw)) }()
	return pr
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// WriteRequest writes a Request case as a raw HTTP/1.1 request to w, with
// Host host and, unless apiKey is empty, the X-API-Key header first.
// Header values are written byte for byte (net/http refuses to send the
// CR and LF some cases carry). Content-Length is added unless the case
// sets it or Transfer-Encoding.
func (c *Case) WriteRequest(w io.Writer, host, apiKey string) error {
	if c.Paths&Request == 0 {
		return errors.New("hostile: " + c.Name + " is not a request case")
	}
	var h bytes.Buffer
	fmt.Fprintf(&h, "%s %s HTTP/1.1\r\nHost: %s\r\n", c.Method, c.Target, host)
	if apiKey != "" {
		fmt.Fprintf(&h, "X-API-Key: %s\r\n", apiKey)
	}
	hasLen := false
	for _, kv := range c.Header {
		k := strings.ToLower(kv[0])
		hasLen = hasLen || k == "content-length" || k == "transfer-encoding"
		h.WriteString(kv[0] + ": " + kv[1] + "\r\n")
	}
	if !hasLen {
		fmt.Fprintf(&h, "Content-Length: %d\r\n", c.Size())
	}
	h.WriteString("Connection: close\r\n\r\n")
	if _, err := w.Write(h.Bytes()); err != nil {
		return err
	}
	_, err := c.WriteTo(w)
	return err
}

// HeaderValue returns the first value of header key (case-insensitive).
func (c *Case) HeaderValue(key string) (string, bool) {
	for _, kv := range c.Header {
		if strings.EqualFold(kv[0], key) {
			return kv[1], true
		}
	}
	return "", false
}

// CheckFileName reports whether a file name echoed back by the service is
// safe to put in a header or a path: valid UTF-8, not empty, at most 255
// bytes, no directory part, no control or format (bidi) characters, not
// only dots.
func CheckFileName(name string) error {
	switch {
	case name == "":
		return errors.New("empty file name")
	case !utf8.ValidString(name):
		return errors.New("file name is not valid UTF-8")
	case len(name) > 255:
		return fmt.Errorf("file name is %d bytes long", len(name))
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("file name %q has a directory part", name)
	case strings.Trim(name, ".") == "":
		return fmt.Errorf("file name %q is only dots", name)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return fmt.Errorf("file name %q has control character %U", name, r)
		}
	}
	return nil
}

// Corpus returns every case, documents first, in a stable order. Each
// call returns fresh cases; costly bytes are built on first use.
func Corpus() []*Case {
	cs := append(Documents(), Requests()...)
	return cs
}

// Documents returns the document-level cases (Multipart and Direct).
func Documents() []*Case {
	var cs []*Case
	cs = append(cs, pdfCases()...)
	cs = append(cs, imageCases()...)
	for _, c := range cs {
		c.Paths = Multipart | Direct
	}
	return cs
}

// Requests returns the request-level cases.
func Requests() []*Case {
	cs := requestCases()
	for _, c := range cs {
		c.Paths = Request
	}
	return cs
}

// Find returns the case named name from cs, or nil.
func Find(cs []*Case, name string) *Case {
	for _, c := range cs {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Upload-time refusals, as the engine words them (engine/jobs/jobs.go,
// engine/jobs/upload.go): the multipart path takes PDF, PNG, JPEG and TIFF;
// direct upload takes PDFs only, checking for "%PDF-" in the first KiB.
var (
	rejectEmptyMultipart   = rejected(400, "empty")
	rejectTypeMultipart    = rejected(400, "unsupported file type")
	rejectEmptyDirect      = rejected(400, "size_bytes")
	rejectNotPDFDirect     = rejected(400, "not a PDF")
	rejectTooLargeDirect   = rejected(413, "exceeds the limit")
	rejectTooLargeMultiprt = rejected(400, "exceeds the limit")
)

// uploadRejects are the refusals at upload time that follow from the
// bytes' first KiB and size, by path.
func (c *Case) uploadRejects(cfg config.Config) map[Path]Expect {
	rj := map[Path]Expect{}
	head := c.head
	if c.gen == nil {
		head = c.held()
	}
	head = head[:min(len(head), 1024)]
	switch {
	case c.Size() == 0:
		rj[Multipart] = rejectEmptyMultipart
		rj[Direct] = rejectEmptyDirect
	case c.Size() > cfg.MaxUploadBytes:
		rj[Direct] = rejectTooLargeDirect
		rj[Multipart] = rejectTooLargeMultiprt
	case !bytes.Contains(head, []byte("%PDF-")):
		rj[Direct] = rejectNotPDFDirect
		if !multipartKind(head) {
			rj[Multipart] = rejectTypeMultipart
		}
	}
	return rj
}

// multipartKind reports whether the engine accepts a file starting with
// head on the multipart path (PDF, PNG, JPEG, TIFF).
func multipartKind(head []byte) bool {
	return bytes.Contains(head, []byte("%PDF-")) ||
		bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")) ||
		bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}) ||
		bytes.HasPrefix(head, []byte("II*\x00")) || bytes.HasPrefix(head, []byte("MM\x00*"))
}

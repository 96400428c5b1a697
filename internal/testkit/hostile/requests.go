package hostile

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Boundary is the multipart boundary of the request cases' bodies.
const Boundary = "hostile-boundary-7MA4YWxkTrZu0gW"

// multipartType is the Content-Type of a well-formed multipart body.
var multipartType = "multipart/form-data; boundary=" + Boundary

// part is one multipart part, headers written as given.
type part struct {
	disposition string // the Content-Disposition value
	body        []byte
}

func filePart(filenameParam string, body []byte) part {
	return part{disposition: `form-data; name="files"; ` + filenameParam, body: body}
}

func fieldPart(name, value string) part {
	return part{disposition: fmt.Sprintf(`form-data; name="%s"`, name), body: []byte(value)}
}

// multipartBody writes parts with Boundary, closing it unless open.
func multipartBody(parts []part, open bool) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		fmt.Fprintf(&b, "--%s\r\nContent-Disposition: %s\r\nContent-Type: application/octet-stream\r\n\r\n", Boundary, p.disposition)
		b.Write(p.body)
		b.WriteString("\r\n")
	}
	if !open {
		fmt.Fprintf(&b, "--%s--\r\n", Boundary)
	}
	return b.Bytes()
}

// postJobs is a multipart POST /v1/jobs request case.
func postJobs(name, note string, parts []part, want Expect) *Case {
	return &Case{Name: name, Note: note, Method: "POST", Target: "/v1/jobs",
		Header: [][2]string{{"Content-Type", multipartType}}, data: multipartBody(parts, false), want: want}
}

// postInit is a POST /v1/jobs/init request case with a JSON body.
func postInit(name, note string, body []byte, want Expect) *Case {
	return &Case{Name: name, Note: note, Method: "POST", Target: "/v1/jobs/init",
		Header: [][2]string{{"Content-Type", "application/json"}}, data: body, want: want}
}

// withIdemKey is a one-file multipart POST /v1/jobs carrying key as
// X-Idempotency-Key, byte for byte.
func withIdemKey(name, note, key string, want Expect) *Case {
	c := postJobs(name, note, []part{filePart(`filename="a.pdf"`, NormalPDF())}, want)
	c.Header = append(c.Header, [2]string{"X-Idempotency-Key", key})
	return c
}

// rfc2231 is a filename* parameter carrying s percent-encoded as UTF-8
// (RFC 2231, RFC 5987), the way a multipart header carries any bytes in a
// name.
func rfc2231(s string) string {
	var b strings.Builder
	b.WriteString("filename*=UTF-8''")
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

var accepted = Expect{Outcome: Accepted}

func requestCases() []*Case {
	pdf := NormalPDF()
	one := func(param string) []part { return []part{filePart(param, pdf)} }
	var cs []*Case
	add := func(c *Case) { cs = append(cs, c) }

	// File names, echoed back in file_name and in the download's
	// Content-Disposition: kept only as a safe base name.
	add(postJobs("req-filename-traversal", "file name ../../../../etc/passwd", one(`filename="../../../../etc/passwd"`), accepted))
	add(postJobs("req-filename-traversal-windows", `file name ..\..\Windows\System32\drivers\etc\hosts.pdf`,
		one(`filename="..\\..\\Windows\\System32\\drivers\\etc\\hosts.pdf"`), accepted))
	add(postJobs("req-filename-absolute", "file name /var/lib/redactd/jobs/x.pdf (RFC 2231)", one(rfc2231("/var/lib/redactd/jobs/x.pdf")), accepted))
	add(postJobs("req-filename-control-chars", "NUL, BEL, ESC and a terminal escape in the file name",
		one(rfc2231("a\x00b\x07c\x1b[31mred\x1b[0m.pdf")), accepted))
	add(postJobs("req-filename-crlf-injection", "CR LF and a header in the file name, to be echoed in Content-Disposition",
		one(rfc2231("a.pdf\r\nContent-Type: text/html\r\nSet-Cookie: session=stolen\r\n\r\n<script>alert(1)</script>")), accepted))
	add(postJobs("req-filename-bidi", "a right-to-left override making invoice\u202Efdp.exe look like invoiceexe.pdf",
		one(rfc2231("invoice\u202Efdp.exe")), accepted))
	add(postJobs("req-filename-10kb", "a 10 kB file name", one(`filename="`+strings.Repeat("a", 10_000)+`.pdf"`), accepted))
	add(postJobs("req-filename-10kb-multibyte", "a 10 kB file name of 3-byte characters, cut anywhere but inside one",
		one(rfc2231(strings.Repeat("\u20ac", 3400)+".pdf")), accepted))
	add(postJobs("req-filename-dots", `file name ".."`, one(`filename=".."`), accepted))
	add(postJobs("req-filename-invalid-utf8", "file name bytes that are not UTF-8", one("filename=\"\xff\xfe\xc0\xaf.pdf\""), accepted))

	// Multipart structure.
	many := make([]part, 5000)
	for i := range many {
		many[i] = filePart(fmt.Sprintf(`filename="f%d.pdf"`, i), pdf)
	}
	add(postJobs("req-multipart-5000-files", "5000 file parts", many, rejected(400, "at most")))
	noname := make([]part, 5000)
	for i := range noname {
		noname[i] = part{disposition: "form-data", body: []byte("x")}
	}
	add(postJobs("req-multipart-5000-nameless-parts", "5000 parts without a form-data name", noname, rejected(400, "name")))
	c := postJobs("req-multipart-no-boundary", "multipart/form-data without a boundary parameter", one(`filename="a.pdf"`), rejected(400, "boundary"))
	c.Header = [][2]string{{"Content-Type", "multipart/form-data"}}
	add(c)
	c = postJobs("req-multipart-wrong-boundary", "the header's boundary is not the body's", one(`filename="a.pdf"`), rejected(400, "malformed"))
	c.Header = [][2]string{{"Content-Type", "multipart/form-data; boundary=not-the-one"}}
	add(c)
	c = postJobs("req-multipart-boundary-too-long", "a 1000-character boundary", one(`filename="a.pdf"`), rejected(400, "boundary"))
	c.Header = [][2]string{{"Content-Type", "multipart/form-data; boundary=" + strings.Repeat("b", 1000)}}
	add(c)
	c = postJobs("req-multipart-unterminated", "the closing boundary never comes", nil, rejected(400, "malformed"))
	c.data = multipartBody(one(`filename="a.pdf"`), true)
	add(c)
	add(postJobs("req-multipart-empty-file", "a file part of zero bytes", []part{filePart(`filename="empty.pdf"`, nil)}, rejected(400, "empty")))

	// JSON.
	add(postInit("req-init-non-utf8", "a file name in the init body that is not UTF-8",
		[]byte("{\"files\":[{\"filename\":\"\xff\xfe.pdf\",\"content_type\":\"application/pdf\",\"size_bytes\":1000}]}"), rejected(400, "UTF-8")))
	add(postJobs("req-terms-non-utf8", "pii_included_terms holding bytes that are not UTF-8",
		append(one(`filename="a.pdf"`), fieldPart("pii_included_terms", "[\"Jane \xff Doe\"]")), rejected(400, "UTF-8")))
	add(postJobs("req-terms-100000", "pii_included_terms with 100000 entries",
		append(one(`filename="a.pdf"`), fieldPart("pii_included_terms", jsonArray(100_000, "t"))), rejected(400, "at most")))
	add(postJobs("req-terms-2mb-field", "pii_excluded_terms field of 2 MB",
		append(one(`filename="a.pdf"`), fieldPart("pii_excluded_terms", jsonArray(200_000, "term"))), rejected(400, "longer than")))
	add(postInit("req-init-terms-5mb", "an init body of 5 MB: a million terms",
		[]byte(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1000}],"pii_included_terms":`+jsonArray(1_000_000, "t")+`}`),
		rejected(413, "")))
	add(postJobs("req-categories-deep-json", "pii_categories nested 100000 arrays deep",
		append(one(`filename="a.pdf"`), fieldPart("pii_categories", strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000))), rejected(400, "pii_categories")))
	add(postInit("req-init-size-huge", "size_bytes of 10^15", []byte(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1000000000000000}]}`),
		rejected(413, "")))
	add(postInit("req-init-size-overflow", "size_bytes beyond int64", []byte(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1e400}]}`),
		rejected(400, "size_bytes")))

	// Headers.
	add(withIdemKey("req-idem-key-crlf", "CR LF and a second header inside X-Idempotency-Key (sent raw)",
		"abc\r\nX-Injected: 1", accepted))
	add(withIdemKey("req-idem-key-bare-cr", "a bare CR inside X-Idempotency-Key", "abc\rX-Injected: 1", rejected(400, "")))
	add(withIdemKey("req-idem-key-nul", "a NUL inside X-Idempotency-Key", "abc\x00def", rejected(400, "")))
	add(withIdemKey("req-idem-key-201", "an X-Idempotency-Key of 201 characters", strings.Repeat("k", 201), rejected(400, "200")))
	add(withIdemKey("req-idem-key-non-utf8", "an X-Idempotency-Key that is not UTF-8", "\xff\xfe\xfd", rejected(400, "UTF-8")))
	c = postJobs("req-content-length-huge", "Content-Length of a terabyte on a small body", one(`filename="a.pdf"`), rejected(413, ""))
	c.Header = append(c.Header, [2]string{"Content-Length", "1000000000000"})
	add(c)

	// A body over the request limit, streamed: three files of 99 MB.
	add(oversizedBody())
	return cs
}

// jsonArray is a JSON array of n strings prefix0, prefix1, ...
func jsonArray(n int, prefix string) string {
	b := []byte{'['}
	for i := 0; i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, prefix...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, '"')
	}
	return string(append(b, ']'))
}

// oversizedBody is a multipart body of three 99 MiB files (each under the
// file limit, together over the 256 MiB request limit), generated as it
// is sent.
func oversizedBody() *Case {
	const fileSize = 99 << 20
	pdf := NormalPDF()
	head := func(i int) string {
		return fmt.Sprintf("--%s\r\nContent-Disposition: form-data; name=\"files\"; filename=\"big%d.pdf\"\r\nContent-Type: application/pdf\r\n\r\n", Boundary, i)
	}
	tail := fmt.Sprintf("--%s--\r\n", Boundary)
	var size int64
	for i := 0; i < 3; i++ {
		size += int64(len(head(i))) + fileSize + 2
	}
	size += int64(len(tail))
	c := &Case{Name: "req-body-over-limit", Note: "a 297 MiB multipart body of three 99 MiB files", Long: true,
		Method: "POST", Target: "/v1/jobs", Header: [][2]string{{"Content-Type", multipartType}}, size: size,
		want: rejected(413, "")}
	c.gen = func(w io.Writer) error {
		pad := bytes.Repeat([]byte("%padding line\n"), 4096)
		for i := 0; i < 3; i++ {
			if _, err := io.WriteString(w, head(i)); err != nil {
				return err
			}
			if _, err := w.Write(pdf); err != nil {
				return err
			}
			for left := fileSize - len(pdf); left > 0; {
				n := min(left, len(pad))
				if _, err := w.Write(pad[:n]); err != nil {
					return err
				}
				left -= n
			}
			if _, err := io.WriteString(w, "\r\n"); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, tail)
		return err
	}
	return c
}

package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"reflect"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
)

var testLimits = Limits{MaxBodyBytes: 1 << 20, MaxFileBytes: 1000, MaxFiles: 3, MaxTerms: 4}

// part is one multipart part for building test bodies.
type part struct {
	name, file, body string
}

func buildMultipart(t testing.TB, parts ...part) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		if p.file != "" {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p.name, p.file))
		} else {
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q`, p.name))
		}
		pw, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(pw, p.body)
	}
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

// wantAPIError checks err is an *APIError with status and a message
// starting with field.
func wantAPIError(t *testing.T, err error, status int, field string) {
	t.Helper()
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v (%T), want *APIError %d", err, err, status)
	}
	if ae.Status != status {
		t.Fatalf("status = %d (%s), want %d", ae.Status, ae.Message, status)
	}
	if field != "" && !strings.HasPrefix(ae.Message, field) {
		t.Fatalf("message %q does not name %q", ae.Message, field)
	}
}

func TestParseMultipart(t *testing.T) {
	pdf := "%PDF-1.4 test"
	tests := []struct {
		name   string
		parts  []part
		status int    // 0: success
		field  string // named in the error
		check  func(t *testing.T, r jobs.CreateJobRequest)
	}{
		{name: "minimal", parts: []part{{"files", "a.pdf", pdf}}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if len(r.Files) != 1 || r.Files[0].Name != "a.pdf" || string(r.Files[0].Data) != pdf {
				t.Fatalf("files = %+v", r.Files)
			}
			if r.Retention != jobs.Ephemeral {
				t.Fatalf("retention = %q", r.Retention)
			}
			if r.Options.Categories != nil || r.Options.Included != nil || r.Options.Excluded != nil {
				t.Fatalf("omitted options must be nil: %+v", r.Options)
			}
		}},
		{name: "all fields", parts: []part{
			{"pii_categories", "", `["Person","Email","Person"]`},
			{"files", "a.pdf", pdf},
			{"files", "b.png", "png"},
			{"pii_included_terms", "", `["Project X"]`},
			{"pii_excluded_terms", "", `["ACME"]`},
			{"retention", "", "studio"},
		}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if !reflect.DeepEqual(r.Options.Categories, []page.Category{page.Person, page.Email}) {
				t.Fatalf("categories = %v", r.Options.Categories)
			}
			if !reflect.DeepEqual(r.Options.Included, []string{"Project X"}) || !reflect.DeepEqual(r.Options.Excluded, []string{"ACME"}) {
				t.Fatalf("terms = %v %v", r.Options.Included, r.Options.Excluded)
			}
			if r.Retention != jobs.Studio || len(r.Files) != 2 {
				t.Fatalf("retention %q files %d", r.Retention, len(r.Files))
			}
		}},
		{name: "empty arrays are explicit", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `[]`}, {"pii_included_terms", "", ` [] `}}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if r.Options.Categories == nil || len(r.Options.Categories) != 0 || r.Options.Included == nil || len(r.Options.Included) != 0 {
				t.Fatalf("want empty non-nil, got %#v", r.Options)
			}
			if r.Options.Excluded != nil {
				t.Fatal("omitted excluded must stay nil")
			}
		}},
		{name: "null means omitted", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `null`}}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if r.Options.Categories != nil {
				t.Fatal("null must mean omitted")
			}
		}},
		{name: "accented terms count characters, and are trimmed", parts: []part{{"files", "a.pdf", pdf},
			{"pii_included_terms", "", `["` + strings.Repeat("é", 200) + `", "  Project X "]`},
			{"pii_excluded_terms", "", `["` + strings.Repeat("ø", 256) + `"]`}}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if !reflect.DeepEqual(r.Options.Included, []string{strings.Repeat("é", 200), "Project X"}) || !reflect.DeepEqual(r.Options.Excluded, []string{strings.Repeat("ø", 256)}) {
				t.Fatalf("terms = %q %q", r.Options.Included, r.Options.Excluded)
			}
		}},
		{name: "path traversal name", parts: []part{{"files", `..\..\etc\passwd`, pdf}}, check: func(t *testing.T, r jobs.CreateJobRequest) {
			if r.Files[0].Name != "passwd" {
				t.Fatalf("name = %q", r.Files[0].Name)
			}
		}},
		{name: "no files", parts: []part{{"retention", "", "studio"}}, status: 400, field: "files"},
		{name: "empty file", parts: []part{{"files", "a.pdf", ""}}, status: 400, field: "files[0]"},
		{name: "file too big", parts: []part{{"files", "a.pdf", strings.Repeat("x", 1001)}}, status: 400, field: "files[0]"},
		{name: "too many files", parts: []part{{"files", "a", "1"}, {"files", "b", "1"}, {"files", "c", "1"}, {"files", "d", "1"}}, status: 400, field: "files"},
		{name: "file part without filename", parts: []part{{"files", "", "data"}}, status: 400, field: "files[0]"},
		{name: "unknown category", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `["Person","Ssn"]`}}, status: 400, field: "pii_categories"},
		{name: "category case matters", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `["person"]`}}, status: 400, field: "pii_categories"},
		{name: "categories malformed", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `["Person"`}}, status: 400, field: "pii_categories"},
		{name: "categories not array", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", `"Person"`}}, status: 400, field: "pii_categories"},
		{name: "categories empty string", parts: []part{{"files", "a.pdf", pdf}, {"pii_categories", "", ``}}, status: 400, field: "pii_categories"},
		{name: "terms numbers", parts: []part{{"files", "a.pdf", pdf}, {"pii_included_terms", "", `[1,2]`}}, status: 400, field: "pii_included_terms"},
		{name: "terms objects", parts: []part{{"files", "a.pdf", pdf}, {"pii_excluded_terms", "", `[{"a":1}]`}}, status: 400, field: "pii_excluded_terms"},
		{name: "terms non utf8", parts: []part{{"files", "a.pdf", pdf}, {"pii_included_terms", "", "[\"a\xffb\"]"}}, status: 400, field: "pii_included_terms"},
		{name: "too many terms", parts: []part{{"files", "a.pdf", pdf}, {"pii_included_terms", "", `["a","b","c","d","e"]`}}, status: 400, field: "pii_included_terms"},
		{name: "blank term", parts: []part{{"files", "a.pdf", pdf}, {"pii_excluded_terms", "", `["  "]`}}, status: 400, field: "pii_excluded_terms"},
		{name: "long term", parts: []part{{"files", "a.pdf", pdf}, {"pii_excluded_terms", "", `["` + strings.Repeat("é", 257) + `"]`}}, status: 400, field: "pii_excluded_terms"},
		{name: "control in term", parts: []part{{"files", "a.pdf", pdf}, {"pii_excluded_terms", "", `["a\u0000b"]`}}, status: 400, field: "pii_excluded_terms"},
		{name: "term index named", parts: []part{{"files", "a.pdf", pdf}, {"pii_included_terms", "", `["ok", "a\nb"]`}}, status: 400, field: "pii_included_terms[1]: contains control characters"},
		{name: "trailing JSON", parts: []part{{"files", "a.pdf", pdf}, {"pii_excluded_terms", "", `["a"] ["b"]`}}, status: 400, field: "pii_excluded_terms"},
		{name: "bad retention", parts: []part{{"files", "a.pdf", pdf}, {"retention", "", "forever"}}, status: 400, field: "retention"},
		{name: "empty retention", parts: []part{{"files", "a.pdf", pdf}, {"retention", "", ""}}, status: 400, field: "retention"},
		{name: "duplicate field", parts: []part{{"files", "a.pdf", pdf}, {"retention", "", "studio"}, {"retention", "", "studio"}}, status: 400, field: "retention"},
		{name: "unknown field", parts: []part{{"files", "a.pdf", pdf}, {"pii_categores", "", `["Person"]`}}, status: 400, field: `"pii_categores"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, body := buildMultipart(t, tt.parts...)
			req, err := ParseMultipart(ct, bytes.NewReader(body), testLimits, memoryFiles)
			if tt.status != 0 {
				wantAPIError(t, err, tt.status, tt.field)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, req)
		})
	}
}

func TestParseMultipartMalformed(t *testing.T) {
	_, body := buildMultipart(t, part{"files", "a.pdf", "x"})
	tests := []struct {
		name   string
		ct     string
		body   []byte
		lim    Limits
		status int
		field  string
	}{
		{name: "no content type", ct: "", body: body, status: 400, field: "Content-Type"},
		{name: "json content type", ct: "application/json", body: body, status: 400, field: "Content-Type"},
		{name: "missing boundary", ct: "multipart/form-data", body: body, status: 400, field: "Content-Type"},
		{name: "wrong boundary", ct: "multipart/form-data; boundary=nothere", body: body, status: 400, field: "body"},
		{name: "truncated", ct: ctOf(t, body), body: body[:len(body)/2], status: 400},
		{name: "garbage", ct: "multipart/form-data; boundary=x", body: []byte("\x00\x01\x02--x\r\nnot a header\r\n\r\n"), status: 400},
		{name: "body over limit", ct: ctOf(t, body), body: body, lim: Limits{MaxBodyBytes: 50, MaxFileBytes: 1000, MaxFiles: 3, MaxTerms: 4}, status: 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lim := tt.lim
			if lim == (Limits{}) {
				lim = testLimits
			}
			_, err := ParseMultipart(tt.ct, bytes.NewReader(tt.body), lim, memoryFiles)
			wantAPIError(t, err, tt.status, tt.field)
		})
	}
}

// ctOf recovers the Content-Type of a body built by buildMultipart.
func ctOf(t *testing.T, body []byte) string {
	t.Helper()
	line, _, _ := bytes.Cut(body, []byte("\r\n"))
	return "multipart/form-data; boundary=" + strings.TrimPrefix(string(line), "--")
}

func TestParseMultipartManyParts(t *testing.T) {
	parts := make([]part, 5000)
	for i := range parts {
		parts[i] = part{"retention", "", "studio"}
	}
	parts[0] = part{"files", "a.pdf", "x"}
	ct, body := buildMultipart(t, parts...)
	_, err := ParseMultipart(ct, bytes.NewReader(body), testLimits, memoryFiles)
	wantAPIError(t, err, 400, "")

	// Thousands of file parts stop at MaxFiles.
	for i := range parts {
		parts[i] = part{"files", "a.pdf", "x"}
	}
	ct, body = buildMultipart(t, parts...)
	_, err = ParseMultipart(ct, bytes.NewReader(body), testLimits, memoryFiles)
	wantAPIError(t, err, 400, "files")
}

func TestParseInit(t *testing.T) {
	tests := []struct {
		name   string
		body   string
		status int
		field  string
		check  func(t *testing.T, r jobs.InitJobRequest)
	}{
		{name: "minimal", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":12}]}`, check: func(t *testing.T, r jobs.InitJobRequest) {
			want := []jobs.InitFile{{FileName: "a.pdf", ContentType: "application/pdf", SizeBytes: 12}}
			if !reflect.DeepEqual(r.Files, want) || r.Retention != jobs.Ephemeral || r.Options.Categories != nil || r.Options.Included != nil {
				t.Fatalf("got %+v", r)
			}
		}},
		{name: "all fields", body: `{"files":[{"filename":"x/../b.pdf","content_type":"application/pdf; charset=binary","size_bytes":1000}],
			"pii_categories":["IBAN"],"pii_included_terms":[],"pii_excluded_terms":["Bob"],"retention":"studio"}`, check: func(t *testing.T, r jobs.InitJobRequest) {
			if r.Files[0].FileName != "b.pdf" || r.Files[0].ContentType != "application/pdf" {
				t.Fatalf("file = %+v", r.Files[0])
			}
			if !reflect.DeepEqual(r.Options.Categories, []page.Category{page.IBAN}) || r.Options.Included == nil || len(r.Options.Included) != 0 {
				t.Fatalf("options = %#v", r.Options)
			}
			if r.Retention != jobs.Studio {
				t.Fatal(r.Retention)
			}
		}},
		{name: "null retention", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"retention":null}`, check: func(t *testing.T, r jobs.InitJobRequest) {
			if r.Retention != jobs.Ephemeral {
				t.Fatal(r.Retention)
			}
		}},
		{name: "not json", body: `files=1`, status: 400, field: "body"},
		{name: "array body", body: `[]`, status: 400, field: "body"},
		{name: "trailing", body: `{"files":[]} {}`, status: 400, field: "body"},
		{name: "unknown field", body: `{"files":[],"callback":"x"}`, status: 400, field: "body"},
		{name: "no files", body: `{}`, status: 400, field: "files"},
		{name: "empty files", body: `{"files":[]}`, status: 400, field: "files"},
		{name: "files not array", body: `{"files":{}}`, status: 400, field: "files"},
		{name: "too many files", body: `{"files":[` + strings.Repeat(`{"filename":"a","content_type":"application/pdf","size_bytes":1},`, 3) + `{"filename":"a","content_type":"application/pdf","size_bytes":1}]}`, status: 400, field: "files"},
		{name: "missing filename", body: `{"files":[{"content_type":"application/pdf","size_bytes":1}]}`, status: 400, field: "files[0].filename"},
		{name: "blank filename", body: `{"files":[{"filename":" ","content_type":"application/pdf","size_bytes":1}]}`, status: 400, field: "files[0].filename"},
		{name: "numeric filename", body: `{"files":[{"filename":5,"content_type":"application/pdf","size_bytes":1}]}`, status: 400, field: "files[0].filename"},
		{name: "image", body: `{"files":[{"filename":"a.png","content_type":"image/png","size_bytes":1}]}`, status: 400, field: "files[0].content_type"},
		{name: "missing size", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf"}]}`, status: 400, field: "files[0].size_bytes"},
		{name: "fractional size", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1.5}]}`, status: 400, field: "files[0].size_bytes"},
		{name: "string size", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":"1"}]}`, status: 400, field: "files[0].size_bytes"},
		{name: "zero size", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":0}]}`, status: 400, field: "files[0].size_bytes"},
		{name: "too large", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1001}]}`, status: 413, field: "files[0].size_bytes"},
		{name: "unknown file field", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1,"sha":"x"}]}`, status: 400, field: "files[0]"},
		{name: "categories as string", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"pii_categories":"[\"Person\"]"}`, status: 400, field: "pii_categories"},
		{name: "unknown category", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"pii_categories":["SSN"]}`, status: 400, field: "pii_categories"},
		{name: "terms numbers", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"pii_included_terms":[1]}`, status: 400, field: "pii_included_terms"},
		{name: "terms non utf8", body: "{\"files\":[{\"filename\":\"a.pdf\",\"content_type\":\"application/pdf\",\"size_bytes\":1}],\"pii_excluded_terms\":[\"\xc3\"]}", status: 400, field: "pii_excluded_terms"},
		{name: "too many terms", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"pii_excluded_terms":["a","b","c","d","e"]}`, status: 400, field: "pii_excluded_terms"},
		{name: "bad retention", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"retention":"keep"}`, status: 400, field: "retention"},
		{name: "retention number", body: `{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":1}],"retention":1}`, status: 400, field: "retention"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := ParseInit([]byte(tt.body), testLimits)
			if tt.status != 0 {
				wantAPIError(t, err, tt.status, tt.field)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, req)
		})
	}
}

func TestParseInitBodyLimit(t *testing.T) {
	_, err := ParseInit(make([]byte, maxInitBodyBytes+1), testLimits)
	wantAPIError(t, err, 413, "")
}

func TestParseIdempotencyKey(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"", "", true},
		{"abc-123", "abc-123", true},
		{strings.Repeat("k", 200), strings.Repeat("k", 200), true},
		{strings.Repeat("é", 200), strings.Repeat("é", 200), true},
		{strings.Repeat("k", 201), "", false},
		{"a\x01b", "", false},
		{"a\xffb", "", false},
	}
	for _, tt := range tests {
		got, err := ParseIdempotencyKey([]byte(tt.in))
		if tt.ok != (err == nil) || got != tt.want {
			t.Errorf("ParseIdempotencyKey(%q) = %q, %v", tt.in, got, err)
		}
		if err != nil {
			wantAPIError(t, err, 400, "X-Idempotency-Key")
		}
	}
}

func TestSanitizeFileName(t *testing.T) {
	long := strings.Repeat("a", 300) + ".pdf"
	longUTF := strings.Repeat("é", 200)
	tests := []struct{ in, want string }{
		{"report.pdf", "report.pdf"},
		{"../../etc/passwd", "passwd"},
		{`C:\Users\bob\scan.png`, "scan.png"},
		{"a\x00b\nc\u202Ed.pdf", "abcd.pdf"},
		{"  spaced.pdf  ", "spaced.pdf"},
		{"..", "file"},
		{"", "file"},
		{"/", "file"},
		{"\x07", "file"},
		{"bad\xff.pdf", "bad_.pdf"},
		{long, strings.Repeat("a", 255)},
		{longUTF, strings.Repeat("é", 127)},
	}
	for _, tt := range tests {
		if got := SanitizeFileName(tt.in); got != tt.want {
			t.Errorf("SanitizeFileName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestOutputName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"scan.pdf", "scan-redacted.pdf"},
		{"photo.jpeg", "photo-redacted.pdf"},
		{"archive.tar.gz", "archive.tar-redacted.pdf"},
		{".hidden", ".hidden-redacted.pdf"},
		{"noext", "noext-redacted.pdf"},
		{strings.Repeat("x", 255), strings.Repeat("x", 255-len("-redacted.pdf")) + "-redacted.pdf"},
	}
	for _, tt := range tests {
		if got := outputName(tt.in); got != tt.want {
			t.Errorf("outputName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	cd := contentDisposition(`Bé"r;t-redacted.pdf`)
	if want := `attachment; filename="B__r_t-redacted.pdf"; filename*=UTF-8''B%C3%A9%22r%3Bt-redacted.pdf`; cd != want {
		t.Errorf("contentDisposition = %s, want %s", cd, want)
	}
}

func TestMapError(t *testing.T) {
	tests := []struct {
		err    error
		status int
		code   string
		msg    string
	}{
		{jobs.ErrUnauthorized, 401, CodeUnauthorized, "Unauthorized"},
		{&jobs.Error{Kind: jobs.ErrUnauthorized, Msg: "key revoked"}, 401, CodeUnauthorized, "Unauthorized"},
		{&jobs.Error{Kind: jobs.ErrInvalid, Field: "files[1]", Msg: "not a PDF or image"}, 400, CodeInvalid, "files[1]: not a PDF or image"},
		{jobs.ErrInvalid, 400, CodeInvalid, "Invalid request"},
		{&jobs.Error{Kind: jobs.ErrInvalid, Field: "pii_categories", Msg: `unknown category "X"`}, 400, CodeInvalid, `pii_categories: unknown category "X"`},
		{&jobs.Error{Kind: jobs.ErrNotFound, Msg: "output not ready"}, 404, CodeNotFound, "output not ready"},
		{&jobs.Error{Kind: jobs.ErrQuota, Msg: "need 7 pages"}, 402, CodeQuota, "Insufficient quota"},
		{&jobs.Error{Kind: jobs.ErrNotFound, Field: "job"}, 404, CodeNotFound, "job"},
		{jobs.ErrNotFound, 404, CodeNotFound, "Not found"},
		{&jobs.Error{Kind: jobs.ErrTooLarge, Field: "files[0]", Msg: "over 100 bytes"}, 413, CodeTooLarge, "files[0]: over 100 bytes"},
		{jobs.ErrConflict, 409, CodeConflict, "Conflict"},
		{&jobs.Error{Kind: jobs.ErrConflict, Msg: "upload already committed"}, 409, CodeConflict, "upload already committed"},
		{&jobs.Error{Kind: jobs.ErrUnavailable, Msg: "disk full"}, 503, CodeUnavailable, "disk full"},
		// Wrapping keeps the typed message; text around a bare sentinel is
		// never shown (it may hold paths or errno text).
		{fmt.Errorf("commit job 7: %w", &jobs.Error{Kind: jobs.ErrConflict, Msg: "upload already committed"}), 409, CodeConflict, "upload already committed"},
		{fmt.Errorf("open /data/files/x: %w", jobs.ErrUnavailable), 503, CodeUnavailable, "Service unavailable"},
		{errors.New("pebble: /data/x corrupted"), 500, CodeInternal, "Internal error"},
		{invalidf("retention", "bad"), 400, CodeInvalid, "retention: bad"},
		// The shared option rules' typed error, bare or wrapped.
		{&contract.FieldError{Field: "pii_included_terms[3]", Msg: "empty term"}, 400, CodeInvalid, "pii_included_terms[3]: empty term"},
		{fmt.Errorf("defaults: %w", &contract.FieldError{Field: "pii_categories", Msg: "unknown category"}), 400, CodeInvalid, "pii_categories: unknown category"},
	}
	for _, tt := range tests {
		ae := mapError(tt.err)
		if ae.Status != tt.status || ae.Code != tt.code || ae.Message != tt.msg {
			t.Errorf("mapError(%v) = %d %s %q, want %d %s %q", tt.err, ae.Status, ae.Code, ae.Message, tt.status, tt.code, tt.msg)
		}
		if http.StatusText(ae.Status) == "" {
			t.Errorf("bad status %d", ae.Status)
		}
	}
}

// memoryFiles is the PutFile of the parser's tests and fuzzer: files kept
// in memory.
func memoryFiles(name string, r io.Reader) (jobs.File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return jobs.File{}, err
	}
	return jobs.File{Name: name, Data: data}, nil
}

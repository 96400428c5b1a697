package server

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseMultipart feeds arbitrary bodies and Content-Types to the
// multipart parser: it must never panic, must answer with an *APIError or
// a request within the limits.
func FuzzParseMultipart(f *testing.F) {
	ct, body := buildMultipart(f, part{"files", "a.pdf", "%PDF"}, part{"pii_categories", "", `["Person"]`}, part{"retention", "", "studio"})
	f.Add(ct, body)
	ct, body = buildMultipart(f, part{"files", "../x\x00.png", "p"}, part{"pii_included_terms", "", `["a","b"]`})
	f.Add(ct, body)
	f.Add("multipart/form-data; boundary=x", []byte("--x\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a\"\r\n\r\nabc\r\n--x--\r\n"))
	f.Add("multipart/form-data", []byte("--x--"))
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		lim := Limits{MaxBodyBytes: 4096, MaxFileBytes: 512, MaxFiles: 4, MaxTerms: 8}
		req, err := ParseMultipart(ct, bytes.NewReader(body), lim, memoryFiles)
		if err != nil {
			var ae *APIError
			if !errors.As(err, &ae) || (ae.Status != 400 && ae.Status != 413) {
				t.Fatalf("error %v is not a 400/413 APIError", err)
			}
			return
		}
		checkFiles(t, len(req.Files), lim)
		for _, f := range req.Files {
			if len(f.Data) == 0 || int64(len(f.Data)) > lim.MaxFileBytes {
				t.Fatalf("file of %d bytes accepted", len(f.Data))
			}
			checkName(t, f.Name)
		}
		if len(req.Options.Included) > lim.MaxTerms || len(req.Options.Excluded) > lim.MaxTerms {
			t.Fatal("term limit not enforced")
		}
	})
}

// FuzzParseInit does the same for the JSON body of POST /v1/jobs/init.
func FuzzParseInit(f *testing.F) {
	f.Add([]byte(`{"files":[{"filename":"a.pdf","content_type":"application/pdf","size_bytes":12}],"pii_categories":["Person"],"pii_included_terms":["x"],"retention":"studio"}`))
	f.Add([]byte(`{"files":[{"filename":"../\u0000a","content_type":"application/pdf","size_bytes":1e3}]}`))
	f.Add([]byte(`{"files":null,"pii_excluded_terms":[1,2]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		lim := Limits{MaxBodyBytes: 4096, MaxFileBytes: 512, MaxFiles: 4, MaxTerms: 8}
		req, err := ParseInit(body, lim)
		if err != nil {
			var ae *APIError
			if !errors.As(err, &ae) || (ae.Status != 400 && ae.Status != 413) {
				t.Fatalf("error %v is not a 400/413 APIError", err)
			}
			return
		}
		checkFiles(t, len(req.Files), lim)
		for _, f := range req.Files {
			if f.SizeBytes <= 0 || f.SizeBytes > lim.MaxFileBytes || f.ContentType != "application/pdf" {
				t.Fatalf("bad file accepted: %+v", f)
			}
			checkName(t, f.FileName)
		}
		for _, terms := range [][]string{req.Options.Included, req.Options.Excluded} {
			if len(terms) > lim.MaxTerms {
				t.Fatal("term limit not enforced")
			}
			for _, s := range terms {
				if !utf8.ValidString(s) {
					t.Fatalf("invalid UTF-8 term accepted")
				}
			}
		}
	})
}

func checkFiles(t *testing.T, n int, lim Limits) {
	t.Helper()
	if n == 0 || n > lim.MaxFiles {
		t.Fatalf("%d files accepted", n)
	}
}

func checkName(t *testing.T, name string) {
	t.Helper()
	if name == "" || len(name) > maxFileName || !utf8.ValidString(name) || bytes.ContainsAny([]byte(name), "/\\\x00\n\r") {
		t.Fatalf("unsafe file name %q", name)
	}
}

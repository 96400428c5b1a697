package server

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/review"
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

// FuzzParseMasks feeds arbitrary PUT bodies of a review state through the
// parser and the engine's validation and merge: never a panic; a refusal
// is a 400 APIError or a review.FieldError; what passes has every box
// inside its page and known categories and statuses.
func FuzzParseMasks(f *testing.F) {
	f.Add([]byte(`{"masks":[{"id":"m1","page":1,"x0":1,"y0":2,"x1":30,"y1":40,"category":"Email","status":"rejected","reason":"pii"},{"page":1,"x0":0,"y0":0,"x1":612,"y1":792,"category":"Person","status":"suggested"}]}`), []byte(`"1"`))
	f.Add([]byte(`{"masks":[{"page":2,"x0":-1e309,"y0":"a"}]}`), []byte(`W/"7"`))
	f.Add([]byte(`{"masks":null}`), []byte(``))
	pages := []review.Page{{Page: 1, Width: 612, Height: 792}}
	f.Fuzz(func(t *testing.T, body, ifMatch []byte) {
		if _, err := ParseIfMatch(ifMatch); err != nil {
			var ae *APIError
			if !errors.As(err, &ae) || (ae.Status != 400 && ae.Status != 428) {
				t.Fatalf("If-Match error %v", err)
			}
		}
		masks, err := ParseMasks(body)
		if err != nil {
			var ae *APIError
			if !errors.As(err, &ae) || ae.Status != 400 {
				t.Fatalf("error %v is not a 400 APIError", err)
			}
			return
		}
		if err := review.Validate(pages, masks, review.Limits{MaxMasks: 50, Reasons: []string{"pii"}}); err != nil {
			var fe *review.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("validation error %v is not a FieldError", err)
			}
			return
		}
		st := review.New("d", []contract.PageInfo{{Width: 612, Height: 792}}, []contract.Mask{{Box: page.Rect{X0: 1, Y0: 2, X1: 30, Y1: 40}, Category: page.Email}})
		out, _, err := review.Merge(st, masks)
		if err != nil {
			return
		}
		for _, m := range out {
			if m.X0 < 0 || m.Y0 < 0 || m.X1 > 612.01 || m.Y1 > 792.01 || m.X1 <= m.X0 || m.Y1 <= m.Y0 || m.ID == "" {
				t.Fatalf("merged mask %+v", m)
			}
		}
	})
}

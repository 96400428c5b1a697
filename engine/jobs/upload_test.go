package jobs

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func pdfInit(name string, data []byte) InitFile {
	return InitFile{FileName: name, ContentType: "application/pdf", SizeBytes: int64(len(data))}
}

func (v *env) put(u ReservedUpload, data []byte) error {
	return v.e.PutUpload(bg, u.DocumentID, u.Token, "application/pdf", int64(len(data)), bytes.NewReader(data))
}

func TestDirectUpload(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("d@example.com", "standard", 0)
	wrong, right := testPDF(2, "fail=aa"), testPDF(2, "nocount")
	second := testPDF(3)
	if len(wrong) != len(right) {
		t.Fatal("test inputs must have equal sizes")
	}
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", right), pdfInit("b.pdf", second)}, Retention: Studio})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Uploads) != 2 || r.Uploads[0].FileName != "a.pdf" || !r.Uploads[0].Expires.Equal(v.clock.Now().Add(15*time.Minute)) {
		t.Fatalf("reservation = %+v", r)
	}
	j, err := v.e.GetJob(bg, a, r.JobID)
	if err != nil || j.Status != StatusUploaded || j.Retention != Studio || statuses(j)[0] != StatusUploaded {
		t.Fatalf("reserved job = %+v, %v", j, err)
	}
	// A repeated PUT before commit replaces the file.
	if err := v.put(r.Uploads[0], wrong); err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[0], right); err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[1], second); err != nil {
		t.Fatal(err)
	}
	j, err = v.e.Commit(bg, a, r.JobID)
	if err != nil || j.Status != StatusAnalyzing {
		t.Fatalf("commit = %+v, %v", j, err)
	}
	j = v.waitDone(a, r.JobID)
	if j.Status != StatusRedacted || j.Documents[0].Status != StatusRedacted || j.Documents[0].PageCount != 2 || j.Documents[1].PageCount != 3 {
		t.Fatalf("job = %+v", j)
	}
	// Commit again: idempotent. PUT after commit: conflict.
	j2, err := v.e.Commit(bg, a, r.JobID)
	if err != nil || j2.Status != StatusRedacted {
		t.Fatalf("second commit = %+v, %v", j2, err)
	}
	wantErr(t, v.put(r.Uploads[0], right), ErrConflict, "already committed")
	if used := v.pagesUsed(a); used != 5 {
		t.Fatalf("pages used = %d", used)
	}
	// Studio keeps originals and masks.
	files := strings.Join(v.jobFiles(r.JobID), " ")
	for _, d := range j.Documents {
		for _, ext := range []string{".orig", ".pdf", ".masks.json"} {
			if !strings.Contains(files, d.ID+ext) {
				t.Errorf("missing %s%s in %s", d.ID, ext, files)
			}
		}
	}
}

func TestInitValidation(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("i@example.com", "standard", 0)
	ok := InitFile{FileName: "a.pdf", ContentType: "application/pdf", SizeBytes: 100}
	tests := []struct {
		name   string
		files  []InitFile
		target error
		want   string
	}{
		{"no files", nil, ErrInvalid, "files: at least one"},
		{"too many", []InitFile{ok, ok, ok, ok, ok, ok}, ErrInvalid, "files: at most 5 files per job"},
		{"not a PDF", []InitFile{ok, {FileName: "b.png", ContentType: "image/png", SizeBytes: 10}}, ErrInvalid, "files[1].content_type"},
		{"no content type", []InitFile{{FileName: "b.pdf", SizeBytes: 10}}, ErrInvalid, "files[0].content_type"},
		{"zero size", []InitFile{{FileName: "b.pdf", ContentType: "application/pdf"}}, ErrInvalid, "files[0].size_bytes"},
		{"negative size", []InitFile{{FileName: "b.pdf", ContentType: "application/pdf", SizeBytes: -1}}, ErrInvalid, "files[0].size_bytes"},
		{"too large", []InitFile{{FileName: "b.pdf", ContentType: "application/pdf", SizeBytes: 1<<20 + 1}}, ErrTooLarge, "files[0].size_bytes: file exceeds the limit of 1048576 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.e.InitJob(bg, a, InitJobRequest{Files: tc.files})
			wantErr(t, err, tc.target, tc.want)
		})
	}
	if _, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "b.pdf", ContentType: "application/pdf; charset=binary", SizeBytes: 1 << 20}}}); err != nil {
		t.Fatalf("content type with parameters, size at the limit: %v", err)
	}
}

func TestPutUploadRejects(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("p@example.com", "standard", 0)
	data := testPDF(1)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", data), pdfInit("b.pdf", data)}})
	if err != nil {
		t.Fatal(err)
	}
	u0, u1 := r.Uploads[0], r.Uploads[1]
	flip := []byte(u0.Token)
	flip[len(flip)/2] ^= 1
	notPDF := bytes.Repeat([]byte("x"), len(data))
	unknown := newID()
	tests := []struct {
		name        string
		docID       string
		token       string
		contentType string
		size        int64
		body        []byte
		target      error
		want        string
	}{
		{"forged token", u0.DocumentID, string(flip), "application/pdf", -1, data, ErrUnauthorized, "invalid upload token"},
		{"garbage token", u0.DocumentID, "abc", "application/pdf", -1, data, ErrUnauthorized, "invalid upload token"},
		{"token of another document", u0.DocumentID, u1.Token, "application/pdf", -1, data, ErrUnauthorized, "invalid upload token"},
		{"declared size differs", u0.DocumentID, u0.Token, "application/pdf", int64(len(data)) + 1, data, ErrInvalid, "size mismatch"},
		{"body too short", u0.DocumentID, u0.Token, "application/pdf", -1, data[:len(data)-1], ErrInvalid, "size mismatch"},
		{"body too long", u0.DocumentID, u0.Token, "application/pdf", -1, append(bytes.Clone(data), 'x'), ErrInvalid, "size mismatch"},
		{"not a PDF", u0.DocumentID, u0.Token, "application/pdf", -1, notPDF, ErrInvalid, "not a PDF"},
		{"wrong content type", u0.DocumentID, u0.Token, "image/png", -1, data, ErrInvalid, "Content-Type"},
		{"unknown document", unknown, v.e.uploadToken(unknown, u0.Expires), "application/pdf", -1, data, ErrNotFound, ""},
		{"malformed document id", "x", u0.Token, "application/pdf", -1, data, ErrNotFound, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := v.e.PutUpload(bg, tc.docID, tc.token, tc.contentType, tc.size, bytes.NewReader(tc.body))
			wantErr(t, err, tc.target, tc.want)
		})
	}
	// Nothing landed and nothing was left behind.
	if files := v.jobFiles(r.JobID); len(files) != 0 {
		t.Fatalf("rejected uploads left files: %v", files)
	}
	// A valid upload without Content-Type or size is accepted.
	if err := v.e.PutUpload(bg, u1.DocumentID, u1.Token, "", -1, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	// Expired URL, judged by the injected clock.
	v.clock.Advance(15*time.Minute + time.Second)
	wantErr(t, v.put(u0, data), ErrUnauthorized, "expired")
}

func TestCommitAfterMissedUpload(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("m@example.com", "standard", 0)
	d0, d1 := testPDF(1), testPDF(2)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", d0), pdfInit("b.pdf", d1)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[0], d0); err != nil {
		t.Fatal(err)
	}
	// The first commit releases what landed; the missing document stays
	// reserved while its URL is valid.
	j, err := v.e.Commit(bg, a, r.JobID)
	if err != nil || j.Documents[1].Status != StatusUploaded || j.Status != StatusUploaded {
		t.Fatalf("partial commit = %+v, %v", j, err)
	}
	waitFor(t, "first document", func() bool {
		j, _ := v.e.GetJob(bg, a, r.JobID)
		return j.Documents[0].Status == StatusRedacted
	})
	// Fix the missed upload and retry the commit.
	if err := v.put(r.Uploads[1], d1); err != nil {
		t.Fatal(err)
	}
	if _, err := v.e.Commit(bg, a, r.JobID); err != nil {
		t.Fatal(err)
	}
	j = v.waitDone(a, r.JobID)
	if j.Status != StatusRedacted || statuses(j)[1] != StatusRedacted {
		t.Fatalf("job = %+v", j)
	}
}

func TestCommitWithoutUploads(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("n@example.com", "standard", 0)
	data := testPDF(1)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", data), pdfInit("b.pdf", data)}})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // idempotent
		j, err := v.e.Commit(bg, a, r.JobID)
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != StatusError {
			t.Fatalf("job status = %s, want error", j.Status)
		}
		for _, d := range j.Documents {
			if d.Status != StatusError || d.ErrorMessage != "upload not received" {
				t.Fatalf("doc = %+v", d)
			}
		}
	}
	wantErr(t, v.put(r.Uploads[0], data), ErrConflict, "")
	if used := v.pagesUsed(a); used != 0 {
		t.Fatalf("pages used = %d", used)
	}
}

func TestCommitAfterURLExpiry(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("x@example.com", "standard", 0)
	data := testPDF(1)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", data), pdfInit("b.pdf", data)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[0], data); err != nil {
		t.Fatal(err)
	}
	v.clock.Advance(16 * time.Minute)
	if _, err := v.e.Commit(bg, a, r.JobID); err != nil {
		t.Fatal(err)
	}
	j := v.waitDone(a, r.JobID)
	if j.Status != StatusRedacted || j.Documents[0].Status != StatusRedacted || j.Documents[1].ErrorMessage != "upload not received" {
		t.Fatalf("job = %+v", j)
	}
}

func TestReservationExpires(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("e@example.com", "standard", 0)
	data := testPDF(1)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{pdfInit("a.pdf", data), pdfInit("b.pdf", data)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.put(r.Uploads[0], data); err != nil {
		t.Fatal(err)
	}
	v.e.jan.janitorOnce(bg) // not due yet
	if j, _ := v.e.GetJob(bg, a, r.JobID); j.Status != StatusUploaded {
		t.Fatalf("early janitor changed the job: %+v", j)
	}
	v.clock.Advance(15 * time.Minute)
	v.e.jan.janitorOnce(bg)
	j, err := v.e.GetJob(bg, a, r.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if j.Status != StatusError || j.Documents[0].ErrorMessage != "upload not committed" || j.Documents[1].ErrorMessage != "upload not received" {
		t.Fatalf("expired reservation = %+v", j)
	}
	if files := v.jobFiles(r.JobID); len(files) != 0 {
		t.Fatalf("files left: %v", files)
	}
	// The error job itself expires like any ephemeral job.
	v.clock.Advance(v.cfg.OutputTTL)
	v.e.jan.janitorOnce(bg)
	if _, err := v.e.GetJob(bg, a, r.JobID); err != ErrNotFound {
		t.Fatalf("after output TTL: %v", err)
	}
}

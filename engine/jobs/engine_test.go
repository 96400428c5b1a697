package jobs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/engine/store/joblog"
)

var bg = context.Background()

func TestDeriveStatus(t *testing.T) {
	doc := func(s Status, released bool) *joblog.Doc {
		return &joblog.Doc{Status: string(s), Released: released}
	}
	tests := []struct {
		name string
		docs []*joblog.Doc
		want Status
	}{
		{"new multipart job shows analyzing", []*joblog.Doc{doc(StatusUploaded, true), doc(StatusUploaded, true)}, StatusAnalyzing},
		{"reserved direct upload shows uploaded", []*joblog.Doc{doc(StatusUploaded, false)}, StatusUploaded},
		{"a reserved doc holds the job at uploaded", []*joblog.Doc{doc(StatusUploaded, false), doc(StatusRedacting, true)}, StatusUploaded},
		{"least advanced non-terminal wins", []*joblog.Doc{doc(StatusRedacting, true), doc(StatusAnalyzing, true), doc(StatusRedacted, true)}, StatusAnalyzing},
		{"queued counts as analyzing", []*joblog.Doc{doc(StatusRedacting, true), doc(StatusUploaded, true)}, StatusAnalyzing},
		{"terminal docs are ignored while others run", []*joblog.Doc{doc(StatusError, true), doc(StatusRedacting, true)}, StatusRedacting},
		{"all redacted", []*joblog.Doc{doc(StatusRedacted, true), doc(StatusRedacted, true)}, StatusRedacted},
		{"one redacted is enough", []*joblog.Doc{doc(StatusError, true), doc(StatusRedacted, true)}, StatusRedacted},
		{"all failed", []*joblog.Doc{doc(StatusError, true), doc(StatusError, false)}, StatusError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := deriveStatus(tc.docs); got != tc.want {
				t.Fatalf("deriveStatus = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestJobLifecycle(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("owner@example.com", "standard", 0)
	png := append([]byte("\x89PNG\r\n\x1a\n"), []byte("\n%redactd-test pages=1\n")...)
	j := v.create(a, pdfFile("a.pdf", 2), pdfFile("dir/b.pdf", 3), File{Name: "c.png", Data: png})

	if j.Status != StatusAnalyzing || j.Retention != Ephemeral || len(j.Documents) != 3 {
		t.Fatalf("created job = %+v", j)
	}
	for _, d := range j.Documents {
		if d.Status != StatusUploaded {
			t.Fatalf("new document status = %s", d.Status)
		}
	}
	if j.Documents[1].FileName != "b.pdf" {
		t.Fatalf("file name = %q, want the last path element", j.Documents[1].FileName)
	}

	done := v.waitDone(a, j.ID)
	if done.Status != StatusRedacted {
		t.Fatalf("job status = %s", done.Status)
	}
	for i, want := range []int{2, 3, 1} {
		d := done.Documents[i]
		if d.Status != StatusRedacted || d.PageCount != want || d.ErrorMessage != "" {
			t.Fatalf("doc %d = %+v", i, d)
		}
		rc, n, err := v.e.Output(bg, a, d.ID)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if no, ok := rc.(NamedOutput); !ok || no.FileName() != []string{"a.pdf", "b.pdf", "c.png"}[i] {
			t.Fatalf("doc %d output is not named after its file", i)
		}
		if !bytes.Equal(got, minimalPDF(want)) || n != int64(len(got)) {
			t.Fatalf("doc %d output differs (%d bytes, size %d)", i, len(got), n)
		}
	}
	if used := v.pagesUsed(a); used != 6 {
		t.Fatalf("pages used = %d, want 6", used)
	}

	// The transition log tells the document's story in order.
	ev, err := v.e.jl.Events(j.ID)
	if err != nil {
		t.Fatal(err)
	}
	var docMoves, jobMoves []string
	for _, e := range ev {
		if e.Doc == j.Documents[0].ID && e.From != e.To {
			docMoves = append(docMoves, e.From+">"+e.To)
		}
		if e.Doc == "" {
			jobMoves = append(jobMoves, e.From+">"+e.To)
		}
	}
	if want := []string{">uploaded", "uploaded>analyzing", "analyzing>redacting", "redacting>redacted"}; !slices.Equal(docMoves, want) {
		t.Fatalf("document events = %v, want %v", docMoves, want)
	}
	if jobMoves[0] != ">analyzing" || jobMoves[len(jobMoves)-1] != "redacting>redacted" {
		t.Fatalf("job events = %v", jobMoves)
	}

	// Ephemeral: originals are gone once processed, outputs and reports stay.
	waitFor(t, "originals to go", func() bool {
		fs := v.jobFiles(j.ID)
		return len(fs) == 6 && !slices.ContainsFunc(fs, func(f string) bool { return strings.HasSuffix(f, ".orig") })
	})
	files := v.jobFiles(j.ID)
	for _, f := range files {
		if strings.HasSuffix(f, ".orig") || strings.HasPrefix(f, tmpPrefix) {
			t.Fatalf("left in job directory: %v", files)
		}
	}
	if len(files) != 6 {
		t.Fatalf("job files = %v, want 3 outputs and 3 reports", files)
	}
	// The queue is empty and the job has a retention entry.
	if n, _ := v.e.jl.Count("queue"); n != 0 {
		t.Fatalf("queue has %d entries", n)
	}
	if n, _ := v.e.jl.Count("expire"); n != 1 {
		t.Fatalf("retention index has %d entries", n)
	}
}

func TestCreateJobValidation(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("v@example.com", "", 0)
	ok := pdfFile("a.pdf", 1)
	many := make([]File, v.cfg.MaxFilesPerJob+1)
	for i := range many {
		many[i] = ok
	}
	tests := []struct {
		name string
		req  CreateJobRequest
		want string
	}{
		{"no files", CreateJobRequest{}, "files: at least one"},
		{"too many files", CreateJobRequest{Files: many}, "files: at most 5 files per job"},
		{"empty file", CreateJobRequest{Files: []File{ok, {Name: "e.pdf"}}}, "files[1]: file is empty"},
		{"too large", CreateJobRequest{Files: []File{{Name: "big.pdf", Data: append([]byte("%PDF-"), make([]byte, 1<<20)...)}}}, "files[0]: file exceeds the limit of"},
		{"unsupported type", CreateJobRequest{Files: []File{{Name: "x.txt", Data: []byte("hello")}}}, "files[0]: unsupported file type"},
		{"PDF header after 1 KiB", CreateJobRequest{Files: []File{{Name: "x.pdf", Data: append(make([]byte, 1100), "%PDF-1.4"...)}}}, "files[0]: unsupported file type"},
		{"control in idempotency key", CreateJobRequest{Files: []File{ok}, IdempotencyKey: "k\r\nX: y"}, "X-Idempotency-Key: contains control characters"},
		{"bad retention", CreateJobRequest{Files: []File{ok}, Retention: "forever"}, `retention: must be "ephemeral" or "studio"`},
		{"callback with a space", CreateJobRequest{Files: []File{ok}, CallbackURL: "https://hooks.example/a b"}, "callback_url: must not contain spaces or control characters"},
		{"long idempotency key", CreateJobRequest{Files: []File{ok}, IdempotencyKey: strings.Repeat("k", 201)}, "X-Idempotency-Key: longer than 200"},
		{"unknown category", CreateJobRequest{Files: []File{ok}, Options: Options{Categories: []page.Category{"Person", "Shoe"}}}, `pii_categories: unknown category "Shoe"`},
		{"too many terms", CreateJobRequest{Files: []File{ok}, Options: Options{Included: []string{"a", "b", "c", "d"}}}, "pii_included_terms: at most 3 terms"},
		{"empty term", CreateJobRequest{Files: []File{ok}, Options: Options{Excluded: []string{"x", "  "}}}, "pii_excluded_terms[1]: empty term"},
		{"long term", CreateJobRequest{Files: []File{ok}, Options: Options{Included: []string{strings.Repeat("é", 257)}}}, "pii_included_terms[0]: longer than 256 characters"},
		{"control in term", CreateJobRequest{Files: []File{ok}, Options: Options{Included: []string{"a", "b\x00c"}}}, "pii_included_terms[1]: contains control characters"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.e.CreateJob(bg, a, tc.req)
			wantErr(t, err, ErrInvalid, tc.want)
		})
	}
	// The option rules' typed field and message reach the caller as an
	// *Error of kind ErrInvalid, so the HTTP layer needs no string work.
	_, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{ok}, Options: Options{Excluded: []string{"x", ""}}})
	var ee *Error
	if !errors.As(err, &ee) || ee.Kind != ErrInvalid || ee.Field != "pii_excluded_terms[1]" || ee.Msg != "empty term" {
		t.Fatalf("err = %#v, want *Error{ErrInvalid, pii_excluded_terms[1], empty term}", err)
	}
	if ids, _ := v.e.jl.AccountJobs(a.ID); len(ids) != 0 {
		t.Fatalf("invalid requests created jobs: %v", ids)
	}
	if ents, _ := readDirNames(v.filesRoot()); len(ents) != 0 {
		t.Fatalf("invalid requests left files: %v", ents)
	}
	// File names follow the one rule the HTTP layer applies too
	// (contract.CleanFileName): cleaned to a safe base name, never refused.
	j, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{{Name: "../x/a\x00b\u202e.pdf", Data: ok.Data}, {Name: " .. ", Data: ok.Data}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{j.Documents[0].FileName, j.Documents[1].FileName}; got[0] != "ab.pdf" || got[1] != "file" {
		t.Fatalf("file names = %q, want [ab.pdf file]", got)
	}
	// 200 characters (not bytes) is fine.
	if _, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{ok}, IdempotencyKey: strings.Repeat("é", 200)}); err != nil {
		t.Fatal(err)
	}
	// Terms are limited in characters too, as docs/behaviour.md says: 256 accented
	// letters are 512 bytes and still one accepted term.
	accented := Options{Included: []string{strings.Repeat("é", 200)}, Excluded: []string{strings.Repeat("ø", 256)}}
	if _, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{ok}, Options: accented}); err != nil {
		t.Fatalf("accented terms of 200 and 256 characters: %v", err)
	}
	if _, err := v.e.CreateJob(bg, nil, CreateJobRequest{Files: []File{ok}}); err != ErrUnauthorized {
		t.Fatalf("nil account: %v", err)
	}
}

func TestIdempotencyConcurrent(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("idem@example.com", "standard", 0)
	req := CreateJobRequest{Files: []File{pdfFile("a.pdf", 3)}, IdempotencyKey: "retry-1"}
	const n = 20
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			j, err := v.e.CreateJob(bg, a, req)
			errs[i] = err
			if err == nil {
				ids[i] = j.ID
			}
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || ids[i] != ids[0] {
			t.Fatalf("request %d: id %s err %v, want %s", i, ids[i], errs[i], ids[0])
		}
	}
	v.waitDone(a, ids[0])
	jobs, _ := v.e.jl.AccountJobs(a.ID)
	if len(jobs) != 1 {
		t.Fatalf("%d jobs created", len(jobs))
	}
	if used := v.pagesUsed(a); used != 3 {
		t.Fatalf("pages used = %d, want 3", used)
	}
	// A retry after completion still returns the original, finished job.
	j, err := v.e.CreateJob(bg, a, req)
	if err != nil || j.ID != ids[0] || j.Status != StatusRedacted {
		t.Fatalf("late retry = %+v, %v", j, err)
	}
	if dirs, _ := readDirNames(v.filesRoot()); len(dirs) != 1 {
		t.Fatalf("job directories = %v", dirs)
	}
}

func TestIdempotencyMismatchAndScope(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("a@example.com", "standard", 0)
	b, _ := v.account("b@example.com", "standard", 0)
	base := CreateJobRequest{Files: []File{pdfFile("a.pdf", 1)}, IdempotencyKey: "k1"}
	j1, err := v.e.CreateJob(bg, a, base)
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name string
		mod  func(r *CreateJobRequest)
	}{
		{"other bytes", func(r *CreateJobRequest) { r.Files = []File{pdfFile("a.pdf", 2)} }},
		{"other name", func(r *CreateJobRequest) { r.Files = []File{{Name: "z.pdf", Data: base.Files[0].Data}} }},
		{"other retention", func(r *CreateJobRequest) { r.Retention = Studio }},
		{"other options", func(r *CreateJobRequest) { r.Options.Categories = []page.Category{page.Email} }},
	}
	for _, tc := range variants {
		t.Run(tc.name, func(t *testing.T) {
			r := base
			tc.mod(&r)
			_, err := v.e.CreateJob(bg, a, r)
			wantErr(t, err, ErrInvalid, "X-Idempotency-Key was already used with a different request")
		})
	}
	// Keys are per account: b's k1 is a new job.
	jb, err := v.e.CreateJob(bg, b, base)
	if err != nil || jb.ID == j1.ID {
		t.Fatalf("other account: %+v, %v", jb, err)
	}
	// Init has its own namespace.
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "a.pdf", ContentType: "application/pdf", SizeBytes: 10}}, IdempotencyKey: "k1"})
	if err != nil || r.JobID == j1.ID {
		t.Fatalf("init with a create key: %+v, %v", r, err)
	}
	r2, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "a.pdf", ContentType: "application/pdf", SizeBytes: 10}}, IdempotencyKey: "k1"})
	if err != nil || r2.JobID != r.JobID || r2.Uploads[0].Token != r.Uploads[0].Token {
		t.Fatalf("init replay: %+v, %v", r2, err)
	}
	_, err = v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "a.pdf", ContentType: "application/pdf", SizeBytes: 11}}, IdempotencyKey: "k1"})
	wantErr(t, err, ErrInvalid, "already used with a different request")
}

func TestQuota(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("q@example.com", "standard", 10)
	// Two 6-page documents do not both fit into 10 pages: exactly one is
	// redacted, the other fails and nothing is charged for it.
	j := v.waitDone(a, v.create(a, pdfFile("a.pdf", 6), pdfFile("b.pdf", 6)).ID)
	var redacted, failed int
	for _, d := range j.Documents {
		switch {
		case d.Status == StatusRedacted:
			redacted++
		case d.Status == StatusError && d.ErrorMessage == "insufficient page quota":
			failed++
		}
	}
	if redacted != 1 || failed != 1 || j.Status != StatusRedacted {
		t.Fatalf("job = %+v", j)
	}
	if used := v.pagesUsed(a); used != 6 {
		t.Fatalf("pages used = %d, want 6", used)
	}
	// Exactly the remaining 4 pages fit.
	j = v.waitDone(a, v.create(a, pdfFile("c.pdf", 4)).ID)
	if j.Status != StatusRedacted || v.pagesUsed(a) != 10 {
		t.Fatalf("job = %+v, used %d", j, v.pagesUsed(a))
	}
	// No pages left: creation is refused with 402 on both paths.
	_, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("d.pdf", 1)}})
	wantErr(t, err, ErrQuota, "")
	_, err = v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "d.pdf", ContentType: "application/pdf", SizeBytes: 10}}})
	wantErr(t, err, ErrQuota, "")
}

func TestFreePlan(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("free@example.com", "free", 0)
	if a.PagesQuota != 5 || a.Plan != "free" {
		t.Fatalf("free account = %+v", a)
	}
	steps := []struct {
		pages   int
		status  Status
		message string
		used    int64
	}{
		{6, StatusError, "free plan: documents up to 5 pages", 0},
		{3, StatusRedacted, "", 3},
		{3, StatusError, "insufficient page quota", 3},
		{2, StatusRedacted, "", 5},
	}
	for i, s := range steps {
		j := v.waitDone(a, v.create(a, pdfFile("f.pdf", s.pages)).ID)
		d := j.Documents[0]
		if d.Status != s.status || d.ErrorMessage != s.message || v.pagesUsed(a) != s.used {
			t.Fatalf("step %d: doc %+v, used %d; want %s %q used %d", i, d, v.pagesUsed(a), s.status, s.message, s.used)
		}
	}
	_, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("g.pdf", 1)}})
	wantErr(t, err, ErrQuota, "")
}

func TestDocumentFailures(t *testing.T) {
	tests := []struct {
		name       string
		directives []string
		pages      int
		wantStatus Status
		wantMsg    string
		wantUsed   int64
	}{
		{"processor DocError", []string{"fail=page_3_is_encrypted"}, 2, StatusError, "page 3 is encrypted", 0},
		{"internal error stays internal", []string{"internal"}, 2, StatusError, "internal error while processing the document", 0},
		{"panic is recovered", []string{"panic"}, 2, StatusError, "internal error while processing the document", 0},
		{"output failing verification", []string{"badoutput"}, 2, StatusError, "output failed verification", 0},
		{"too many pages", nil, 101, StatusError, "document has 101 pages; the limit is 100", 0},
		{"page count only in the result is charged", []string{"nocount"}, 4, StatusRedacted, "", 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := newEnv(t)
			a, _ := v.account("f@example.com", "standard", 0)
			j := v.waitDone(a, v.create(a, pdfFile("x.pdf", tc.pages, tc.directives...)).ID)
			d := j.Documents[0]
			if d.Status != tc.wantStatus || d.ErrorMessage != tc.wantMsg {
				t.Fatalf("doc = %+v, want %s %q", d, tc.wantStatus, tc.wantMsg)
			}
			if j.Status != tc.wantStatus {
				t.Fatalf("job status = %s", j.Status)
			}
			// On a shared store the refund lands just after the state.
			waitFor(t, "the refund", func() bool { return v.pagesUsed(a) == tc.wantUsed })
			if tc.wantStatus == StatusError {
				if _, _, err := v.e.Output(bg, a, d.ID); !strings.Contains(fmt.Sprint(err), "output not ready") {
					t.Fatalf("output of failed doc: %v", err)
				}
				// The original goes right after the terminal state is recorded.
				waitFor(t, "ephemeral files to go", func() bool { return len(v.jobFiles(j.ID)) == 0 })
			}
		})
	}
}

func TestOptionsDefaults(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("opts@example.com", "standard", 0)
	// A new account gets every category but Signature, which has no
	// detector yet (page.DefaultCategories; docs/behaviour.md, "Faces,
	// signatures and codes"): Face and Barcode are on.
	if !slices.Equal(a.Defaults.Categories, page.DefaultCategories) ||
		!slices.Contains(a.Defaults.Categories, page.Face) || !slices.Contains(a.Defaults.Categories, page.Barcode) ||
		slices.Contains(a.Defaults.Categories, page.Signature) {
		t.Fatalf("new account defaults = %+v", a.Defaults)
	}
	// An account created before the visual categories keeps the list it
	// saved: its jobs ask for no Face or Barcode (old, below).
	old, _ := v.account("old@example.com", "standard", 0)
	spec := []page.Category{page.Person, page.Email, page.PhoneNumber, page.Address, page.Organization, page.Date, page.IBAN, page.CreditCard, page.NationalID}
	if err := v.e.SetDefaults(bg, "old@example.com", Options{Categories: spec}); err != nil {
		t.Fatal(err)
	}
	jOld := v.create(old, pdfFile("old.pdf", 1))
	v.waitDone(old, jOld.ID)
	if got := v.proc.input(jOld.Documents[0].ID).Options.Categories; !slices.Equal(got, spec) {
		t.Errorf("an account's saved defaults gave %v, want %v", got, spec)
	}
	err := v.e.SetDefaults(bg, "OPTS@example.com", Options{Categories: []page.Category{page.Email, page.IBAN}, Included: []string{" ACME "}})
	if err != nil {
		t.Fatal(err)
	}
	j1 := v.create(a, pdfFile("a.pdf", 1))
	j2, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("b.pdf", 1)},
		Options: Options{Categories: []page.Category{}, Excluded: []string{"Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Changing the defaults later does not touch existing jobs.
	if err := v.e.SetDefaults(bg, "opts@example.com", Options{Categories: []page.Category{page.Person}}); err != nil {
		t.Fatal(err)
	}
	v.waitDone(a, j1.ID)
	v.waitDone(a, j2.ID)
	tests := []struct {
		job  *Job
		want Options
	}{
		{j1, Options{Categories: []page.Category{page.Email, page.IBAN}, Included: []string{"ACME"}, Excluded: []string{}}},
		{j2, Options{Categories: []page.Category{}, Included: []string{"ACME"}, Excluded: []string{"Bob"}}},
	}
	for i, tc := range tests {
		got := v.proc.input(tc.job.Documents[0].ID).Options
		if !slices.Equal(got.Categories, tc.want.Categories) || !slices.Equal(got.Included, tc.want.Included) || !slices.Equal(got.Excluded, tc.want.Excluded) {
			t.Errorf("job %d options = %+v, want %+v", i, got, tc.want)
		}
	}
	wantErr(t, v.e.SetDefaults(bg, "nobody@example.com", Options{}), ErrNotFound, "")
	wantErr(t, v.e.SetDefaults(bg, "opts@example.com", Options{Categories: []page.Category{"Nope"}}), ErrInvalid, "pii_categories")
}

func TestCrossAccountNotFound(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("a@example.com", "standard", 0)
	b, _ := v.account("b@example.com", "standard", 0)
	j := v.waitDone(a, v.create(a, pdfFile("a.pdf", 1)).ID)
	r, err := v.e.InitJob(bg, a, InitJobRequest{Files: []InitFile{{FileName: "x.pdf", ContentType: "application/pdf", SizeBytes: 10}}})
	if err != nil {
		t.Fatal(err)
	}
	docID := j.Documents[0].ID
	calls := []struct {
		name string
		call func(acct *Account) error
	}{
		{"GetJob", func(x *Account) error { _, err := v.e.GetJob(bg, x, j.ID); return err }},
		{"Commit", func(x *Account) error { _, err := v.e.Commit(bg, x, r.JobID); return err }},
		{"Output", func(x *Account) error { _, _, err := v.e.Output(bg, x, docID); return err }},
		{"DeleteJob", func(x *Account) error { return v.e.DeleteJob(bg, x, j.ID) }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.call(b)
			if err != ErrNotFound {
				t.Fatalf("other account: err = %v, want exactly ErrNotFound", err)
			}
		})
	}
	unknown := []string{"00000000-0000-0000-0000-000000000000", "not-a-uuid", "../../etc", strings.ToUpper(j.ID), ""}
	for _, id := range unknown {
		if _, err := v.e.GetJob(bg, a, id); err != ErrNotFound {
			t.Errorf("GetJob(%q) = %v", id, err)
		}
		if _, _, err := v.e.Output(bg, a, id); err != ErrNotFound {
			t.Errorf("Output(%q) = %v", id, err)
		}
	}
	// The owner still has everything.
	if _, err := v.e.GetJob(bg, a, j.ID); err != nil {
		t.Fatal(err)
	}
	rc, _, err := v.e.Output(bg, a, docID)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
}

func TestKeys(t *testing.T) {
	v := newEnv(t)
	key1, info1, err := v.e.CreateKey(bg, " Alice@Example.com ", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(key1, "rdk_") || len(key1) != keyLen || info1.Email != "alice@example.com" || len(info1.ID) != 12 {
		t.Fatalf("key %q info %+v", key1, info1)
	}
	v.clock.Advance(time.Second)
	key2, info2, err := v.e.CreateKey(bg, "alice@example.com", "", 0)
	if err != nil || info2.AccountID != info1.AccountID || key2 == key1 || info2.ID == info1.ID {
		t.Fatalf("second key: %+v %v", info2, err)
	}
	acct, err := v.e.Authenticate(bg, key1)
	if err != nil || acct.ID != info1.AccountID || acct.Email != "alice@example.com" || acct.Plan != "standard" || acct.PagesQuota != v.cfg.StandardPages {
		t.Fatalf("Authenticate = %+v, %v", acct, err)
	}
	other := "A"
	if strings.HasSuffix(key1, other) {
		other = "B"
	}
	bad := []string{"", "rdk_", key1[:len(key1)-1], key1[:len(key1)-1] + other, "Bearer " + key1, "RDK_" + key1[4:]}
	for _, k := range bad {
		if _, err := v.e.Authenticate(bg, k); err != ErrUnauthorized {
			t.Errorf("Authenticate(%q) = %v", k, err)
		}
	}
	if err := v.e.RevokeKey(bg, info1.ID); err != nil {
		t.Fatal(err)
	}
	if err := v.e.RevokeKey(bg, info1.ID); err != nil {
		t.Fatalf("second revoke: %v", err)
	}
	if _, err := v.e.Authenticate(bg, key1); err != ErrUnauthorized {
		t.Fatalf("revoked key: %v", err)
	}
	if _, err := v.e.Authenticate(bg, key2); err != nil {
		t.Fatalf("other key of the account: %v", err)
	}
	wantErr(t, v.e.RevokeKey(bg, "nope"), ErrNotFound, "")
	keys, err := v.e.ListKeys(bg)
	if err != nil || len(keys) != 2 || keys[0].ID != info1.ID || !keys[0].Revoked || keys[1].Revoked || keys[1].Email != "alice@example.com" {
		t.Fatalf("ListKeys = %+v, %v", keys, err)
	}
	invalid := []struct{ email, plan string }{{"not an address", ""}, {"a@b.c", "gold"}, {"Name <a@b.c>", ""}}
	for _, c := range invalid {
		if _, _, err := v.e.CreateKey(bg, c.email, c.plan, 0); err == nil {
			t.Errorf("CreateKey(%q, %q) succeeded", c.email, c.plan)
		}
	}
	// Keys survive a restart; only their hash is stored.
	v.reopen(newTestProc())
	if _, err := v.e.Authenticate(bg, key2); err != nil {
		t.Fatalf("after reopen: %v", err)
	}
	all, _ := v.e.jl.AllKeys()
	for _, k := range all {
		if strings.Contains(k, key2[4:]) {
			t.Fatalf("key stored in clear: %q", k)
		}
	}
	// Plan and pages describe a new account; an existing one keeps its own.
	if _, _, err := v.e.CreateKey(bg, "alice@example.com", "free", 3); err != nil {
		t.Fatal(err)
	}
	acct, _ = v.e.Authenticate(bg, key2)
	if acct.Plan != "standard" || acct.PagesQuota != v.cfg.StandardPages {
		t.Fatalf("existing account changed: %+v", acct)
	}
	_, info3, err := v.e.CreateKey(bg, "bob@example.com", "free", 3)
	if err != nil {
		t.Fatal(err)
	}
	if a3, err := v.e.jl.Account(info3.AccountID); err != nil || a3.Plan != "free" || a3.PagesQuota != 3 {
		t.Fatalf("new free account with pages: %+v %v", a3, err)
	}
}

func TestLogsCarryNoPII(t *testing.T) {
	v := newEnv(t)
	key, _, err := v.e.CreateKey(bg, "secret.person@example.com", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := v.e.Authenticate(bg, key)
	j, err := v.e.CreateJob(bg, a, CreateJobRequest{
		Files:   []File{pdfFile("Medical-Record-John-Doe.pdf", 1), pdfFile("Tax-Return-Jane.pdf", 1, "fail=bad_page")},
		Options: Options{Included: []string{"Sensitive Term"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	v.waitDone(a, j.ID)
	if err := v.e.DeleteJob(bg, a, j.ID); err != nil {
		t.Fatal(err)
	}
	logs := v.logs.String()
	for _, s := range []string{"John-Doe", "Tax-Return", "Sensitive Term", key, key[4:20], "secret.person", "redactd-test"} {
		if strings.Contains(logs, s) {
			t.Errorf("logs contain %q", s)
		}
	}
	if !strings.Contains(logs, j.ID) {
		t.Errorf("logs do not mention the job id")
	}
}

func TestCloseRejectsNewWork(t *testing.T) {
	v := newEnv(t)
	a, _ := v.account("c@example.com", "standard", 0)
	if err := v.e.Ready(); err != nil {
		t.Fatal(err)
	}
	if err := v.e.Close(); err != nil {
		t.Fatal(err)
	}
	_, err := v.e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1)}})
	wantErr(t, err, ErrUnavailable, "")
	wantErr(t, v.e.Ready(), ErrUnavailable, "")
	if _, err := v.e.GetJob(bg, a, newID()); err == nil || err == ErrNotFound {
		t.Fatalf("GetJob after close: %v", err)
	}
	if err := v.e.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	cfg := testConfig(t)
	e, err := Open(cfg, newTestProc(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A second engine on the same data directory is refused (pebble lock).
	if e2, err := Open(cfg, newTestProc(), nil); err == nil {
		e2.Close()
		t.Fatal("second Open on the same directory succeeded")
	}
	e.Close()
}

func TestAdminOnlyOpen(t *testing.T) {
	cfg := testConfig(t)
	e, err := Open(cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := e.CreateKey(bg, "admin@example.com", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.Authenticate(bg, key)
	if err != nil {
		t.Fatal(err)
	}
	j, err := e.CreateJob(bg, a, CreateJobRequest{Files: []File{pdfFile("a.pdf", 1)}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	// The queued document is processed once a processor is there.
	e, err = open(cfg, newTestProc(), nil, hooks{verify: verifyTestPDF})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	waitFor(t, "processing", func() bool {
		got, err := e.GetJob(bg, a, j.ID)
		return err == nil && got.Status == StatusRedacted
	})
}

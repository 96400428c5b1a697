package server_test

// Tenant isolation through a real listener: another account's job,
// reservation and document ids behave exactly like ids that do not exist
// (same 404, same body except request_id, no measurable difference in
// latency that would reveal existence), revoked keys are refused
// everywhere, and nothing B tries changes A's data.

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/redactd/redactd/engine/jobs"
)

// tenant is an account's resources, created through the API.
type tenant struct {
	key      string
	done     jobJSON     // a finished multipart job with several documents
	resv     reservation // a direct-upload reservation, not committed
	resvFile string      // the reservation's file contents
}

// newTenant creates an account with a finished job of docs documents and
// an uncommitted reservation of one document.
func newTenant(e *env, email string, docs int) tenant {
	e.t.Helper()
	tn := tenant{key: e.key(email, jobs.PlanStandard, 1000)}
	var files [][2]string
	for i := 0; i < docs; i++ {
		files = append(files, [2]string{fmt.Sprintf("secret-%d.pdf", i), samplePDF(1)})
	}
	tn.done = e.wait(tn.key, e.job(e.create(tn.key, form{files: files}, nil)).JobID)
	for _, d := range tn.done.Documents {
		if d.Status != "redacted" {
			e.t.Fatalf("setup: %+v", tn.done)
		}
	}
	tn.resvFile = samplePDF(1)
	tn.resv = e.init(tn.key, [2]string{"reserved.pdf", tn.resvFile})
	return tn
}

// probe is one request B can make with an id.
type probe struct {
	method, path string
}

func probes(jobID, docID string) []probe {
	return []probe{
		{"GET", "/v1/jobs/" + jobID},
		{"DELETE", "/v1/jobs/" + jobID},
		{"POST", "/v1/jobs/" + jobID + "/commit"},
		{"GET", "/v1/documents/" + docID + "/output"},
		{"HEAD", "/v1/documents/" + docID + "/output"},
		{"GET", "/v1/documents/" + docID + "/report"},
	}
}

// shape is a response with everything that may differ between two
// otherwise identical answers removed: the request id (header and body)
// and the Date header.
func shape(r resp) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", r.status)
	var names []string
	for k := range r.header {
		if k != "X-Request-Id" && k != "Date" {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(r.header[k], ","))
	}
	b.WriteString(requestIDField.ReplaceAllString(string(r.body), `"request_id":"-"`))
	return b.String()
}

var requestIDField = regexp.MustCompile(`"request_id":"[^"]*"`)

func TestIsolationMatrix(t *testing.T) {
	e := start(t, testConfig(t))
	a := newTenant(e, "owner-a@example.com", 3)
	b := newTenant(e, "other-b@example.com", 1)

	// What B may learn about A: nothing. Every id of A, and a fresh UUID,
	// a malformed id and a job id used as a document id, answer exactly
	// the same 404.
	unknownJob, unknownDoc := uuid.NewString(), uuid.NewString()
	want := map[string]string{} // method+route → shape of the unknown-id answer
	for _, p := range probes(unknownJob, unknownDoc) {
		r := e.do(p.method, p.path, b.key, nil, nil)
		if p.method != "HEAD" {
			r.wantError(t, 404, "not_found")
		} else if r.status != 404 {
			t.Fatalf("HEAD unknown output: %d", r.status)
		}
		want[p.method+" "+routeOf(p.path)] = shape(r)
	}
	check := func(label string, ps []probe) {
		t.Helper()
		for _, p := range ps {
			r := e.do(p.method, p.path, b.key, nil, nil)
			if r.status != 404 {
				t.Errorf("%s: %s %s by another account: %d %s (want 404, never 403 or data)", label, p.method, p.path, r.status, r.body)
				continue
			}
			if got, w := shape(r), want[p.method+" "+routeOf(p.path)]; got != w {
				t.Errorf("%s: %s %s: answer differs from an unknown id's:\n%s\n--- unknown id ---\n%s", label, p.method, p.path, got, w)
			}
			for _, leak := range append(a.ids(), "secret-", "reserved.pdf", "owner-a") {
				if strings.Contains(string(r.body), leak) || strings.Contains(fmt.Sprint(r.header), leak) {
					t.Errorf("%s: %s %s: answer mentions %q", label, p.method, p.path, leak)
				}
			}
		}
	}
	for i, d := range a.done.Documents {
		check(fmt.Sprintf("finished job, doc %d", i), probes(a.done.JobID, d.ID))
	}
	check("reservation", probes(a.resv.JobID, a.resv.Uploads[0].DocumentID))
	check("job id as document id", probes(a.done.JobID, a.done.JobID))
	check("malformed ids", probes(a.done.JobID+"x", strings.ToUpper(a.done.Documents[0].ID)))

	// Upload URL of A's reservation with B's token (a valid token of
	// another document): refused as a forged token, 401 like any bad
	// token (the token is checked before the document is looked up, so an
	// unknown document id answers the same), and nothing lands.
	tokB := strings.SplitN(b.resv.Uploads[0].UploadURL, "?", 2)[1]
	base := e.url + "/uploads/"
	forged := e.put(base+a.resv.Uploads[0].DocumentID+"?"+tokB, a.resvFile)
	forged.wantError(t, 401, "unauthorized")
	ghost := e.put(base+uuid.NewString()+"?"+tokB, a.resvFile)
	ghost.wantError(t, 401, "unauthorized")
	if shape(forged) != shape(ghost) {
		t.Errorf("forged token on an existing vs an unknown document differ:\n%s\n---\n%s", shape(forged), shape(ghost))
	}

	// Idempotency keys are per account: B reusing A's key gets its own
	// new job and reservation, never A's.
	idem := map[string]string{"X-Idempotency-Key": "shared-key-1"}
	ja := e.job(e.create(a.key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}}, idem))
	jb := e.job(e.create(b.key, form{files: [][2]string{{"b.pdf", samplePDF(1)}}}, idem))
	if ja.JobID == jb.JobID {
		t.Fatal("another account's idempotency key returned its job")
	}
	initBody := `{"files":[{"filename":"i.pdf","content_type":"application/pdf","size_bytes":100}]}`
	hdr := map[string]string{"X-Idempotency-Key": "shared-key-2", "Content-Type": "application/json"}
	var ra, rb reservation
	e.do("POST", "/v1/jobs/init", a.key, strings.NewReader(initBody), hdr).json(t, &ra)
	e.do("POST", "/v1/jobs/init", b.key, strings.NewReader(initBody), hdr).json(t, &rb)
	if ra.JobID == "" || ra.JobID == rb.JobID || ra.Uploads[0].UploadURL == rb.Uploads[0].UploadURL {
		t.Fatalf("init with another account's idempotency key: %+v vs %+v", ra, rb)
	}

	// A's data is untouched by all of B's attempts: the finished job and
	// its outputs are there, and the reservation was neither committed
	// nor failed by B's commit (a commit with nothing uploaded would have
	// put it in error).
	after := e.job(e.do("GET", "/v1/jobs/"+a.done.JobID, a.key, nil, nil))
	if after.Status != "redacted" || len(after.Documents) != len(a.done.Documents) {
		t.Fatalf("A's job after B's attempts: %+v", after)
	}
	for _, d := range after.Documents {
		out := e.do("GET", "/v1/documents/"+d.ID+"/output", a.key, nil, nil)
		if out.status != 200 {
			t.Fatalf("A lost output %s: %d", d.ID, out.status)
		}
		verifyPDF(t, out.body)
	}
	rv := e.job(e.do("GET", "/v1/jobs/"+a.resv.JobID, a.key, nil, nil))
	if rv.Status != "uploaded" || rv.Documents[0].Status != "uploaded" {
		t.Fatalf("A's reservation after B's commit attempts: %+v", rv)
	}
	if r := e.put(a.resv.Uploads[0].UploadURL, a.resvFile); r.status != 201 {
		t.Fatalf("A's own upload after B's attempts: %d %s", r.status, r.body)
	}
	if j := e.wait(a.key, e.job(e.do("POST", "/v1/jobs/"+a.resv.JobID+"/commit", a.key, nil, nil)).JobID); j.Documents[0].Status != "redacted" {
		t.Fatalf("A's reservation after commit: %+v", j)
	}
}

// ids lists every id of the tenant's resources.
func (tn tenant) ids() []string {
	out := []string{tn.done.JobID, tn.resv.JobID, tn.resv.Uploads[0].DocumentID}
	for _, d := range tn.done.Documents {
		out = append(out, d.ID)
	}
	return out
}

// routeOf maps a probe path to its route pattern.
func routeOf(path string) string {
	segs := strings.Split(path, "/")
	if len(segs) > 3 {
		segs[3] = "{id}"
	}
	return strings.Join(segs, "/")
}

func TestIsolationRevokedKey(t *testing.T) {
	e := start(t, testConfig(t))
	a := newTenant(e, "revoked@example.com", 1)
	second, info, err := e.eng.CreateKey(context.Background(), "revoked@example.com", jobs.PlanStandard, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Both keys of the account work before the revocation.
	for _, k := range []string{a.key, second} {
		if r := e.do("GET", "/v1/jobs/"+a.done.JobID, k, nil, nil); r.status != 200 {
			t.Fatalf("before revoke: %d", r.status)
		}
	}
	if err := e.eng.RevokeKey(context.Background(), info.ID); err != nil {
		t.Fatal(err)
	}
	doc := a.done.Documents[0].ID
	eps := append(probes(a.done.JobID, doc), probes(a.resv.JobID, doc)...)
	eps = append(eps, probe{"GET", "/v1/me"}, probe{"POST", "/v1/jobs/init"})
	for _, p := range eps {
		r := e.do(p.method, p.path, second, nil, nil)
		if p.method == "HEAD" {
			if r.status != 401 {
				t.Errorf("revoked key: HEAD %s: %d", p.path, r.status)
			}
			continue
		}
		if m := r.wantError(t, 401, "unauthorized"); m["error"] != "Unauthorized" {
			t.Errorf("revoked key: %s %s: message %q", p.method, p.path, m["error"])
		}
	}
	// Job creation with the revoked key: 401 and no job appears.
	e.create(second, form{files: [][2]string{{"x.pdf", samplePDF(1)}}}, nil).wantError(t, 401, "unauthorized")
	// The revoked key's answers equal an unknown key's.
	if got, w := shape(e.do("GET", "/v1/jobs/"+a.done.JobID, second, nil, nil)), shape(e.do("GET", "/v1/jobs/"+a.done.JobID, "rk_unknown", nil, nil)); got != w {
		t.Errorf("revoked vs unknown key differ:\n%s\n---\n%s", got, w)
	}
	// The account's other key still works, and its data is intact.
	j := e.job(e.do("GET", "/v1/jobs/"+a.done.JobID, a.key, nil, nil))
	if j.Status != "redacted" {
		t.Fatalf("after revoking another key: %+v", j)
	}
	if r := e.do("DELETE", "/v1/jobs/"+a.resv.JobID, a.key, nil, nil); r.status != 200 {
		t.Fatalf("other key after revoke: %d", r.status)
	}
}

// TestIsolationTiming compares the latency of asking for another
// account's ids with that of asking for ids that do not exist. Requests
// of the two kinds are interleaved so that drift on a shared machine
// affects both alike. The numbers are logged; the assertion is only a
// generous bound on the ratio of medians, since timings on a shared CI
// machine are noisy.
func TestIsolationTiming(t *testing.T) {
	cfg := testConfig(t)
	cfg.MaxFilesPerJob = 20
	e := start(t, cfg)
	// A job with many documents: a lookup that read the documents before
	// checking the owner would take visibly longer for it.
	a := newTenant(e, "timing-a@example.com", 20)
	b := e.key("timing-b@example.com", jobs.PlanStandard, 10)
	n := 300
	if testing.Short() {
		n = 60
	}
	ghostJob, ghostDoc := uuid.NewString(), uuid.NewString()
	kinds := []struct {
		name          string
		method        string
		theirs, ghost string
	}{
		{"GET job", "GET", "/v1/jobs/" + a.done.JobID, "/v1/jobs/" + ghostJob},
		{"DELETE job", "DELETE", "/v1/jobs/" + a.done.JobID, "/v1/jobs/" + ghostJob},
		{"commit", "POST", "/v1/jobs/" + a.resv.JobID + "/commit", "/v1/jobs/" + ghostJob + "/commit"},
		{"output", "GET", "/v1/documents/" + a.done.Documents[0].ID + "/output", "/v1/documents/" + ghostDoc + "/output"},
	}
	for _, k := range kinds {
		var theirs, ghost []time.Duration
		// Warm up connections and caches.
		for i := 0; i < 10; i++ {
			e.do(k.method, k.theirs, b, nil, nil)
			e.do(k.method, k.ghost, b, nil, nil)
		}
		for i := 0; i < n; i++ {
			pair := [2]string{k.theirs, k.ghost}
			if i%2 == 1 {
				pair = [2]string{k.ghost, k.theirs}
			}
			for _, p := range pair {
				t0 := time.Now()
				r := e.do(k.method, p, b, nil, nil)
				el := time.Since(t0)
				if r.status != http.StatusNotFound {
					t.Fatalf("%s %s: %d", k.method, p, r.status)
				}
				if p == k.theirs {
					theirs = append(theirs, el)
				} else {
					ghost = append(ghost, el)
				}
			}
		}
		mt, mg := median(theirs), median(ghost)
		ratio := float64(mt) / float64(mg)
		t.Logf("%-10s n=%d  median other-account %8v  median unknown %8v  ratio %.2f  (p90 %v vs %v)", k.name, n, mt, mg, ratio, pct(theirs, 90), pct(ghost, 90))
		if ratio > 3 || ratio < 1.0/3 {
			t.Errorf("%s: median latency for another account's id is %.2f× that of an unknown id: existence is observable", k.name, ratio)
		}
	}
}

func median(d []time.Duration) time.Duration { return pct(d, 50) }

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

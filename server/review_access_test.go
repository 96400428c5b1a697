package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/internal/testkit/natskit"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// on returns a browser with the same cookies that sends its requests to
// the node e: a load balancer moving the reviewer between nodes. (Cookies
// do not tell ports apart, so the session cookie goes to every node.)
func (b *browser) on(e *env) *browser { return &browser{t: b.t, e: e, hc: b.hc} }

// keyID creates a key of the account with this e-mail address and
// returns it with its id (for RevokeKey).
func (e *env) keyID(email string) (key, id string) {
	e.t.Helper()
	k, info, err := e.eng.CreateKey(context.Background(), email, "standard", 0)
	if err != nil {
		e.t.Fatal(err)
	}
	return k, info.ID
}

func letterPDF() string {
	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 14, "Dear Rosalind Fairweather,")
	return string(d.Bytes())
}

// wantNoSession: what the editor answers without a session, for a page,
// the module's API, and a page load arriving from another site.
func (b *browser) wantNoSession(jobID, docID string) {
	b.t.Helper()
	b.do("GET", "/review/jobs/"+jobID, nil, nil).wantStatus(b.t, 401)
	b.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).wantStatus(b.t, 401)
	b.do("GET", "/review/api/docs/"+docID+"/pages/1/original.png", nil, nil).wantStatus(b.t, 401)
	b.do("POST", "/review/api/docs/"+docID+"/apply", nil, nil).wantStatus(b.t, 401)
	r := b.do("GET", "/review/jobs/"+jobID, nil, map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"})
	if r.status != 200 || !strings.Contains(string(r.body), `http-equiv="refresh"`) {
		b.t.Fatalf("cross-site arrival without a session: %d %s", r.status, r.body)
	}
}

// TestReviewEditorRevokedKey: `keys revoke` ends the editor sessions
// opened with links the key made, and its unredeemed links, as it ends
// the key's API access; another key's session goes on.
func TestReviewEditorRevokedKey(t *testing.T) {
	e := start(t, reviewConfig(t))
	key, keyID := e.keyID("revoke@example.com")
	key2, _ := e.keyID("revoke@example.com")
	jobID, docID := e.studioJob(key, "letter.pdf", letterPDF(), "studio")

	b, b2 := e.browser(), e.browser()
	b.do("GET", e.link(key, jobID, `{"reviewer":"Ann"}`), nil, nil).wantStatus(t, 200)
	b2.do("GET", e.link(key2, jobID, `{"reviewer":"Bob"}`), nil, nil).wantStatus(t, 200)
	pending := e.link(key, jobID, "")
	b.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).wantStatus(t, 200)

	if err := e.eng.RevokeKey(context.Background(), keyID); err != nil {
		t.Fatal(err)
	}
	e.do("GET", "/v1/jobs/"+jobID, key, nil, nil).wantStatus(t, 401)
	b.wantNoSession(jobID, docID)
	e.browser().do("GET", pending, nil, nil).wantStatus(t, 404)
	b2.do("GET", "/review/api/docs/"+docID+"/state", nil, nil).wantStatus(t, 200)
}

// TestReviewEditorCluster: two nodes on one NATS JetStream store, as
// deploy/cluster runs them. A link made on node A is redeemed through
// node B; the session opened there is used on A and B in turn; a key
// revoked through B ends the session on A and its link made on A.
func TestReviewEditorCluster(t *testing.T) {
	nc := natskit.Start(t, 1)
	node := func() *env {
		cfg := reviewConfig(t)
		cfg.Engine, cfg.NATSURL, cfg.NATSReplicas, cfg.NATSLease = "nats", nc.URLs(), 1, 3*time.Second
		return start(t, cfg)
	}
	a, b := node(), node()
	key, keyID := a.keyID("cluster@example.com")
	jobID, docID := a.studioJob(key, "letter.pdf", letterPDF(), "studio")

	br := b.browser()
	r := br.do("GET", a.link(key, jobID, `{"reviewer":"Ann"}`), nil, nil)
	if r.status != http.StatusOK || !strings.Contains(string(r.body), "letter.pdf") {
		t.Fatalf("a link made on A, redeemed on B: %d %s", r.status, r.body)
	}
	for i, n := range []*env{a, b, a} {
		br.on(n).do("GET", "/review/api/docs/"+docID+"/state", nil, nil).wantStatus(t, 200)
		br.on(n).do("GET", "/review/api/docs/"+docID+"/pages/1/original.png?dpi=36", nil, nil).wantStatus(t, 200)
		if t.Failed() {
			t.Fatalf("use %d", i)
		}
	}
	pending := a.link(key, jobID, "")
	if err := b.eng.RevokeKey(context.Background(), keyID); err != nil {
		t.Fatal(err)
	}
	br.on(a).wantNoSession(jobID, docID)
	br.on(b).wantNoSession(jobID, docID)
	a.browser().do("GET", pending, nil, nil).wantStatus(t, 404)
}

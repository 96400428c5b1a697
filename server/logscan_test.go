package server_test

// Secrets and personal data in logs: a whole job lifecycle (multipart and
// direct upload, idempotent retry, download, a failing document, refused
// keys, delete) with distinctive values, at log level info and at debug,
// with the process-wide default logger (MuPDF's messages) captured too.
// API keys, upload tokens, file names and idempotency keys must never be
// logged; detected text, terms and the account's e-mail never at info.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/internal/testkit/testlog"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// startLogged is start with the engine, pipeline and server logging at
// level into the returned env's logs, and slog's default logger (used by
// the MuPDF layer) sent there too for the test's duration.
func startLogged(t *testing.T, cfg config.Config, level slog.Level) *env {
	t.Helper()
	logs := &testlog.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: level}))
	prev := slog.Default()
	slog.SetDefault(log)
	t.Cleanup(func() { slog.SetDefault(prev) })
	return startWith(t, cfg, logs, log)
}

// Distinctive values: each occurs nowhere else, so a hit in the logs can
// only come from the request.
const (
	lsEmail      = "zelda.quartermain@example.org"               // the account
	lsFile       = "Zyxel-Quarterly-Payroll-7731.pdf"            // multipart file name
	lsDirectFile = "Wombat-Direct-Upload-5512.pdf"               // direct-upload file name
	lsBadFile    = "Broken-Llama-Ledger-9904.pdf"                // a damaged document
	lsIdem       = "idem-Kumquat-8841"                           // idempotency key
	lsPerson     = "Quentin Vandersloot"                         // detected name
	lsPII        = "quentin.vandersloot@example.net"             // detected e-mail
	lsPhone      = "+44 20 7946 0958"                            // detected phone number
	lsTerm       = "Project Marmalade-Tango"                     // included term
	lsExcluded   = "Harbour Logistics Obsidian"                  // excluded term
	lsBadTerm    = "Forbidden\u0007Term-Ocelot"                  // a term refused with 400
	lsSecretText = "Nothing-Detectable-Here-But-Content-Tapir42" // plain document text
)

func lsDocument() []byte {
	d := testpdf.New()
	p := d.AddPage(595, 842, 0)
	p.Text(72, 760, 12, "Employee: "+lsPerson)
	p.Text(72, 740, 12, "E-mail: "+lsPII)
	p.Text(72, 720, 12, "Phone: "+lsPhone)
	p.Text(72, 700, 12, "Codename "+lsTerm)
	p.Text(72, 680, 12, "Carrier "+lsExcluded)
	p.Text(72, 660, 12, lsSecretText)
	return d.Bytes()
}

// lifecycle runs everything a caller can do with the distinctive values
// and returns the secrets that appeared: the API key, a revoked key and
// the upload token.
func lifecycle(t *testing.T, e *env) (secrets []string) {
	key, info, err := e.eng.CreateKey(context.Background(), lsEmail, jobs.PlanStandard, 100)
	if err != nil {
		t.Fatal(err)
	}
	revoked, rinfo, err := e.eng.CreateKey(context.Background(), lsEmail, jobs.PlanStandard, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.eng.RevokeKey(context.Background(), rinfo.ID); err != nil {
		t.Fatal(err)
	}
	_ = info
	pdf := string(lsDocument())
	terms := [][2]string{{"pii_included_terms", fmt.Sprintf("[%q]", lsTerm)}, {"pii_excluded_terms", fmt.Sprintf("[%q]", lsExcluded)}}

	if r := e.do("GET", "/v1/me", key, nil, nil); r.status != 200 {
		t.Fatalf("me: %d", r.status)
	}
	// Multipart with an idempotency key, retried once.
	f := form{files: [][2]string{{lsFile, pdf}}, fields: terms}
	j := e.job(e.create(key, f, map[string]string{"X-Idempotency-Key": lsIdem}))
	if j2 := e.job(e.create(key, f, map[string]string{"X-Idempotency-Key": lsIdem})); j2.JobID != j.JobID {
		t.Fatal("idempotent retry made a new job")
	}
	j = e.wait(key, j.JobID)
	if j.Documents[0].Status != "redacted" || j.Documents[0].FileName != lsFile {
		t.Fatalf("job: %+v", j)
	}
	out := e.do("GET", "/v1/documents/"+j.Documents[0].ID+"/output", key, nil, nil)
	verifyPDF(t, out.body)

	// Direct upload, including a wrong-size PUT and a forged token.
	res := e.init(key, [2]string{lsDirectFile, pdf})
	u := res.Uploads[0].UploadURL
	token := strings.SplitN(u, "token=", 2)[1]
	e.put(u, pdf+"x").wantError(t, 400, "invalid_request")
	e.put(u[:len(u)-3]+"abc", pdf).wantError(t, 401, "unauthorized")
	if r := e.put(u, pdf); r.status != 201 {
		t.Fatalf("put: %d %s", r.status, r.body)
	}
	e.job(e.do("POST", "/v1/jobs/"+res.JobID+"/commit", key, nil, nil))
	if d := e.wait(key, res.JobID); d.Documents[0].Status != "redacted" {
		t.Fatalf("direct job: %+v", d)
	}

	// A damaged document ends in error (and is logged as a failure).
	bad := e.job(e.create(key, form{files: [][2]string{{lsBadFile, "%PDF-1.7\n1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\n" + lsSecretText + "\ntrailer <</Root 1 0 R>>\n%%EOF"}}}, nil))
	if d := e.wait(key, bad.JobID); d.Documents[0].Status != "error" {
		t.Fatalf("damaged document: %+v", d)
	}

	// Refused requests: a term with a control character (400 naming the
	// field), a wrong key, the revoked key, another account's id.
	e.create(key, form{files: [][2]string{{lsFile, pdf}}, fields: [][2]string{{"pii_included_terms", fmt.Sprintf("[%q]", lsBadTerm)}}}, nil).wantError(t, 400, "invalid_request")
	e.do("GET", "/v1/me", key+"x", nil, nil).wantError(t, 401, "unauthorized")
	e.do("GET", "/v1/jobs/"+j.JobID, revoked, nil, nil).wantError(t, 401, "unauthorized")
	e.create(revoked, f, nil).wantError(t, 401, "unauthorized")

	// Delete everything.
	for _, id := range []string{j.JobID, res.JobID, bad.JobID} {
		if r := e.do("DELETE", "/v1/jobs/"+id, key, nil, nil); r.status != 200 {
			t.Fatalf("delete: %d", r.status)
		}
	}
	return []string{key, key + "x", revoked, token}
}

func TestLogsHoldNoSecrets(t *testing.T) {
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		t.Run(level.String(), func(t *testing.T) {
			e := startLogged(t, testConfig(t), level)
			secrets := lifecycle(t, e)
			logs := e.logs.String()
			lines := strings.Split(strings.TrimSpace(logs), "\n")
			levels := map[string]int{}
			for _, l := range lines {
				var m map[string]any
				if err := json.Unmarshal([]byte(l), &m); err != nil {
					t.Errorf("log line is not JSON: %q", l)
					continue
				}
				levels[fmt.Sprint(m["level"])]++
			}
			t.Logf("level %s: %d log lines %v, %d bytes", level, len(lines), levels, len(logs))

			// Never, at any level.
			never := map[string]string{
				"API key": secrets[0], "wrong API key": secrets[1], "revoked API key": secrets[2], "upload token": secrets[3],
				"file name": lsFile, "file name stem": strings.TrimSuffix(lsFile, ".pdf"),
				"direct-upload file name": lsDirectFile, "damaged file name": lsBadFile,
				"download name":   strings.TrimSuffix(lsFile, ".pdf") + "-redacted.pdf",
				"idempotency key": lsIdem, "refused term": "Ocelot",
			}
			// Never at info and above; at debug reported.
			infoOnly := map[string]string{
				"detected e-mail": lsPII, "detected name": lsPerson, "detected phone": lsPhone,
				"included term": lsTerm, "excluded term": lsExcluded, "document text": lsSecretText,
				"account e-mail": lsEmail,
			}
			for what, s := range never {
				if strings.Contains(logs, s) {
					t.Errorf("logs at %s contain the %s: %s", level, what, lineWith(logs, s))
				}
			}
			for what, s := range infoOnly {
				hit := false
				for _, l := range lines {
					if !strings.Contains(l, s) {
						continue
					}
					hit = true
					if !strings.Contains(l, `"level":"DEBUG"`) {
						t.Errorf("a %s-level line holds the %s: %s", level, what, l)
					}
				}
				if hit && level == slog.LevelDebug {
					t.Logf("debug logs contain the %s: %s", what, lineWith(logs, s))
				}
			}
		})
	}
}

// lineWith returns the first log line containing s, shortened.
func lineWith(logs, s string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, s) {
			if len(l) > 400 {
				return l[:400] + "…"
			}
			return l
		}
	}
	return ""
}

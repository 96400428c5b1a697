package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// The crash test builds redactd, runs it as a subprocess, SIGKILLs it at
// several points (during an upload, right after a commit, while documents
// are being processed) and restarts it on the same data directory. Every
// accepted job must reach a terminal state exactly once: retried creations
// with the same idempotency key return the same job, every document ends
// redacted with a valid output, and the account's quota (exactly the
// pages submitted) is enough, so nothing was charged twice.

// buildRedactd compiles the daemon into a temporary directory.
func buildRedactd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "redactd")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// daemon is one redactd serve process.
type daemon struct {
	t    *testing.T
	cmd  *exec.Cmd
	url  string
	logs *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func serveArgs(data string) []string {
	return []string{"serve", "--data", data, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--dpi", "50", "--ocr", "off",
		"--workers", "2", "--max-concurrent-jobs", "2", "--rate-limit", "0", "--log-level", "info"}
}

func startDaemon(t *testing.T, bin, data string) *daemon {
	t.Helper()
	return startDaemonArgs(t, bin, serveArgs(data))
}

// startDaemonArgs starts `redactd` with args and waits until it listens.
func startDaemonArgs(t *testing.T, bin string, args []string) *daemon {
	t.Helper()
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &daemon{t: t, cmd: cmd, logs: &lockedBuffer{}, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			d.logs.Write([]byte(line + "\n"))
			var m map[string]any
			if json.Unmarshal([]byte(line), &m) == nil && m["msg"] == "listening" {
				select {
				case addr <- m["addr"].(string):
				default:
				}
			}
		}
	}()
	go func() { cmd.Wait(); close(d.done) }()
	t.Cleanup(func() { d.kill() })
	select {
	case a := <-addr:
		d.url = "http://" + a
	case <-d.done:
		t.Fatalf("redactd exited at start:\n%s", d.logs.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("redactd did not start:\n%s", d.logs.String())
	}
	return d
}

// kill sends SIGKILL and waits for the process to be gone.
func (d *daemon) kill() {
	select {
	case <-d.done:
		return
	default:
	}
	d.cmd.Process.Signal(syscall.SIGKILL)
	<-d.done
}

type crashClient struct {
	t   *testing.T
	hc  *http.Client
	key string
}

func (c *crashClient) do(d *daemon, method, path string, body io.Reader, hdr map[string]string, out any) int {
	c.t.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = d.url + path
	}
	st, err := apiRequest(c.t, c.hc, c.key, method, u, body, hdr, out)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	return st
}

// apiRequest sends one API request (with the key, except to upload
// URLs, which carry their own token), decodes a 2xx answer into out
// (JSON, or the bytes for a *[]byte) and logs any other answer. An error
// means no answer came.
func apiRequest(t *testing.T, hc *http.Client, key, method, u string, body io.Reader, hdr map[string]string, out any) (int, error) {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(u, "/uploads/") {
		req.Header.Set("X-API-Key", key)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode/100 == 2 {
		if w, ok := out.(*[]byte); ok {
			*w = b
		} else if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, u, err, b)
		}
	}
	if res.StatusCode/100 != 2 {
		t.Logf("%s %s: %d %s", method, u, res.StatusCode, bytes.TrimSpace(b))
	}
	return res.StatusCode, nil
}

type crashJob struct {
	JobID     string `json:"job_id"`
	Status    string `json:"status"`
	Documents []struct {
		ID           string  `json:"id"`
		Status       string  `json:"status"`
		PageCount    int     `json:"page_count"`
		ErrorMessage *string `json:"error_message"`
	} `json:"documents"`
}

func multipartPDF(t *testing.T, pdf []byte) (string, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, err := w.CreateFormFile("files", "doc.pdf")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(pdf)
	w.Close()
	return w.FormDataContentType(), buf.Bytes()
}

func crashPDF(pages int) []byte {
	d := testpdf.New()
	for i := 0; i < pages; i++ {
		p := d.AddPage(595, 842, 0)
		p.Text(72, 760, 12, "Customer: jane.doe@example.com")
		p.Text(72, 740, 12, fmt.Sprintf("IBAN DE89 3704 0044 0532 0130 00, page %d", i+1))
	}
	return d.Bytes()
}

func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the daemon")
	}
	bin := buildRedactd(t)
	data, err := os.MkdirTemp("", "rdcrash")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(data) })

	const smallPages, smallJobs, bigPages, directPages = 2, 6, 40, 3
	total := smallJobs*smallPages + bigPages + directPages

	d := startDaemon(t, bin, data)
	// The key comes through the admin socket of the running server.
	out, err := exec.Command(bin, "keys", "create", "--data", data, "--email", "crash@example.com", "--plan", "standard", "--pages", fmt.Sprint(total)).Output()
	if err != nil {
		t.Fatalf("keys create: %v\n%s", err, d.logs.String())
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	c := &crashClient{t: t, hc: &http.Client{Timeout: time.Minute}, key: lines[len(lines)-1]}

	small := crashPDF(smallPages)
	ct, body := multipartPDF(t, small)
	create := func(d *daemon, i int) string {
		var j crashJob
		if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(body), map[string]string{"Content-Type": ct, "X-Idempotency-Key": fmt.Sprintf("job-%d", i)}, &j); st != 200 {
			t.Fatalf("create %d: %d", i, st)
		}
		return j.JobID
	}
	ids := map[int]string{}
	for i := 0; i < smallJobs/2; i++ {
		ids[i] = create(d, i)
	}

	// Kill 1: during a direct upload (half the body sent).
	direct := crashPDF(directPages)
	var res struct {
		JobID   string `json:"job_id"`
		Uploads []struct {
			UploadURL string `json:"upload_url"`
		} `json:"uploads"`
	}
	initBody := fmt.Sprintf(`{"files":[{"filename":"direct.pdf","content_type":"application/pdf","size_bytes":%d}]}`, len(direct))
	if st := c.do(d, "POST", "/v1/jobs/init", strings.NewReader(initBody), map[string]string{"Content-Type": "application/json", "X-Idempotency-Key": "direct"}, &res); st != 200 {
		t.Fatal("init failed")
	}
	uploadPath := strings.TrimPrefix(res.Uploads[0].UploadURL, d.url)
	conn, err := net.Dial("tcp", strings.TrimPrefix(d.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nx-ms-blob-type: BlockBlob\r\nContent-Length: %d\r\n\r\n", uploadPath, len(direct))
	conn.Write(direct[:len(direct)/2])
	time.Sleep(200 * time.Millisecond)
	d.kill()
	conn.Close()

	// Restart; retried creations return the same jobs; finish the upload.
	d = startDaemon(t, bin, data)
	for i := 0; i < smallJobs; i++ {
		id := create(d, i)
		if prev, ok := ids[i]; ok && prev != id {
			t.Fatalf("retry of job %d after crash made a new job %s (was %s)", i, id, prev)
		}
		ids[i] = id
	}
	if st := c.do(d, "POST", "/v1/jobs/init", strings.NewReader(initBody), map[string]string{"Content-Type": "application/json", "X-Idempotency-Key": "direct"}, &res); st != 200 || res.JobID == "" {
		t.Fatal("init retry failed")
	}
	if st := c.do(d, "PUT", d.url+uploadPath, bytes.NewReader(direct), map[string]string{"Content-Type": "application/pdf", "x-ms-blob-type": "BlockBlob"}, nil); st != 201 {
		t.Fatalf("upload after restart: %d", st)
	}

	// Kill 2: right after commit.
	var cj crashJob
	if st := c.do(d, "POST", "/v1/jobs/"+res.JobID+"/commit", nil, nil, &cj); st != 200 {
		t.Fatal("commit failed")
	}
	d.kill()

	// Kill 3: mid-processing of a long document.
	d = startDaemon(t, bin, data)
	bct, bbody := multipartPDF(t, crashPDF(bigPages))
	var big crashJob
	if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(bbody), map[string]string{"Content-Type": bct, "X-Idempotency-Key": "big"}, &big); st != 200 {
		t.Fatal("big job failed")
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		var j crashJob
		c.do(d, "GET", "/v1/jobs/"+big.JobID, nil, nil, &j)
		s := j.Documents[0].Status
		if s == "analyzing" || s == "redacting" {
			break
		}
		if s == "redacted" || s == "error" || time.Now().After(deadline) {
			t.Logf("big document already %s before the kill", s)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	d.kill()

	// Final restart: everything completes exactly once.
	d = startDaemon(t, bin, data)
	var again crashJob
	if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(bbody), map[string]string{"Content-Type": bct, "X-Idempotency-Key": "big"}, &again); st != 200 || again.JobID != big.JobID {
		t.Fatalf("big retry: %d %s vs %s", st, again.JobID, big.JobID)
	}
	all := []string{res.JobID, big.JobID}
	for _, id := range ids {
		all = append(all, id)
	}
	seen := map[string]bool{}
	for _, id := range all {
		if seen[id] {
			t.Fatalf("job %s returned for two different requests", id)
		}
		seen[id] = true
	}
	pages := 0
	for _, id := range all {
		j := waitTerminal(t, c, d, id)
		for _, doc := range j.Documents {
			if doc.Status != "redacted" {
				msg := ""
				if doc.ErrorMessage != nil {
					msg = *doc.ErrorMessage
				}
				t.Fatalf("job %s document %s ended %s: %s\n%s", id, doc.ID, doc.Status, msg, d.logs.String())
			}
			pages += doc.PageCount
			var pdf []byte
			if st := c.do(d, "GET", "/v1/documents/"+doc.ID+"/output", nil, nil, &pdf); st != 200 {
				t.Fatalf("output %s: %d", doc.ID, st)
			}
			if err := pdfout.Verify(bytes.NewReader(pdf), int64(len(pdf))); err != nil {
				t.Fatalf("output of %s invalid after crashes: %v", doc.ID, err)
			}
		}
	}
	if pages != total {
		t.Fatalf("%d pages redacted, want %d", pages, total)
	}
	// The quota was exactly the pages submitted: all used, none twice.
	if st := c.do(d, "POST", "/v1/jobs", bytes.NewReader(body), map[string]string{"Content-Type": ct}, nil); st != 402 {
		t.Fatalf("quota after all jobs: %d, want 402 (exactly used up)", st)
	}
	// Clean shutdown on SIGTERM.
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
		if code := d.cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("exit code %d after SIGTERM\n%s", code, d.logs.String())
		}
	case <-time.After(40 * time.Second):
		t.Fatal("no exit after SIGTERM")
	}
}

func waitTerminal(t *testing.T, c *crashClient, d *daemon, id string) crashJob {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		var j crashJob
		if st := c.do(d, "GET", "/v1/jobs/"+url.PathEscape(id), nil, nil, &j); st != 200 {
			t.Fatalf("job %s: %d", id, st)
		}
		done := len(j.Documents) > 0
		for _, doc := range j.Documents {
			done = done && (doc.Status == "redacted" || doc.Status == "error")
		}
		if done {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s not terminal: %+v\n%s", id, j, d.logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

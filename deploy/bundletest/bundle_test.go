package bundletest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/pdfout"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// repoRoot is the repository, seen from this package's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// cleanEnv is the environment of everything run from the bundle: no Go
// variables, no REDACTD_* settings, HOME and TMPDIR inside the test's
// directory.
func cleanEnv(home string) []string {
	return []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home, "LANG=C.UTF-8"}
}

// runIn runs a command with the clean environment and cwd dir.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

var bundleName = regexp.MustCompile(`^redactd-([A-Za-z0-9._+-]+)-linux-amd64\.tar\.gz$`)

// TestBundle builds the release bundle with deploy/bundle.sh (what `make
// bundle` runs), unpacks it, installs it with its install.sh into a
// temporary prefix, checks it with the installed `redactd doctor`, serves
// from there, creates a key with the installed binary, redacts a PDF
// through the HTTP API and stops the service with SIGTERM.
func TestBundle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the release bundle")
	}
	root := repoRoot(t)
	for _, f := range []string{".cache/ort/libonnxruntime.so.1", ".cache/models/ocr/det.onnx"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Skipf("%s missing (run `make setup`): %v", f, err)
		}
	}
	// A short path: the admin socket lives in the data directory and unix
	// socket paths are limited to 108 bytes.
	tmp, err := os.MkdirTemp("", "rdbundle")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })

	// 1. Build.
	dist := filepath.Join(tmp, "dist")
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	build := exec.CommandContext(ctx, filepath.Join(root, "deploy", "bundle.sh"), "--out", dist)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("bundle.sh: %v\n%s", err, out)
	}
	ents, err := os.ReadDir(dist)
	if err != nil || len(ents) != 1 {
		t.Fatalf("dist holds %v (%v), want one tarball", ents, err)
	}
	m := bundleName.FindStringSubmatch(ents[0].Name())
	if m == nil {
		t.Fatalf("bundle name %q does not match %s", ents[0].Name(), bundleName)
	}
	version, tarball := m[1], filepath.Join(dist, ents[0].Name())

	// 2. Unpack and inspect, from a directory outside the repository.
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	env := cleanEnv(home)
	if out, err := runIn(t, home, env, "tar", "-xzf", tarball); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	bdir := filepath.Join(home, "redactd-"+version+"-linux-amd64")
	for _, f := range []string{"install.sh", "bin/redactd", "bin/redact", "lib/libonnxruntime.so.1", "lib/SHA256SUMS",
		"models/ocr/det.onnx", "models/ocr/rec.onnx", "models/ocr/cls.onnx", "models/ocr/ppocr_keys_v1.txt", "models/SHA256SUMS",
		"etc/redactd.json", "systemd/redactd.service", "licenses/LICENSE", "licenses/THIRD_PARTY.md",
		"licenses/ner-model-manifest.json", "README.md", "VERSION", "REQUIRES", "SHA256SUMS"} {
		st, err := os.Stat(filepath.Join(bdir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("bundle lacks %s (%v)", f, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// The supported distributions (deploy/README.md) reach down to RHEL 9's
	// glibc 2.34: no binary of the bundle may need a newer one.
	if req, err := os.ReadFile(filepath.Join(bdir, "REQUIRES")); err != nil || !glibcAtMost(strings.TrimSpace(string(req)), 2, 34) {
		t.Errorf("REQUIRES %q (%v): the bundle must run on glibc 2.34 (RHEL 9)", req, err)
	}
	if out, err := runIn(t, home, env, filepath.Join(bdir, "bin/redactd"), "version"); err != nil || !strings.HasPrefix(out, "redactd "+version+" ") {
		t.Fatalf("redactd version: %q %v, want version %s", out, err, version)
	}

	// The unit file is valid for systemd (where systemd-analyze exists),
	// pointed at a binary that exists, as install.sh rewrites it.
	if sa, err := exec.LookPath("systemd-analyze"); err == nil {
		unit, err := os.ReadFile(filepath.Join(bdir, "systemd/redactd.service"))
		if err != nil {
			t.Fatal(err)
		}
		unit = bytes.ReplaceAll(unit, []byte("/usr/bin/redactd"), []byte(filepath.Join(bdir, "bin/redactd")))
		path := filepath.Join(tmp, "redactd.service")
		if err := os.WriteFile(path, unit, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := runIn(t, home, env, sa, "verify", path); err != nil || strings.TrimSpace(out) != "" {
			t.Errorf("systemd-analyze verify redactd.service: %v\n%s", err, out)
		}
	}

	// 2b. The unpacked bundle runs where it is, with no flags and no config:
	// doctor finds the library and models beside the executable, and it
	// serves and redacts from there.
	inPlace := filepath.Join(bdir, "bin", "redactd")
	out, err := runIn(t, home, env, inPlace, "doctor", "--data", "./data-inplace")
	if err != nil {
		t.Fatalf("doctor in place: %v\n%s", err, out)
	}
	for _, want := range []string{
		"onnxruntime: " + filepath.Join(bdir, "lib/libonnxruntime.so.1") + " loaded",
		"1 file(s) match " + filepath.Join(bdir, "lib/SHA256SUMS") + "; found beside the executable",
		"ocr model files: " + filepath.Join(bdir, "models/ocr") + ": ",
		"4 file(s) match " + filepath.Join(bdir, "models/SHA256SUMS") + "; found beside the executable",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor in place lacks %q:\n%s", want, out)
		}
	}
	dp := startService(t, home, env, inPlace, "serve", "--data", "./data-inplace", "--listen", "127.0.0.1:0")
	out, err = runIn(t, home, env, inPlace, "keys", "create", "--data", "./data-inplace", "--email", "inplace@example.com", "--plan", "standard")
	if err != nil {
		t.Fatalf("keys create in place: %v\n%s\n%s", err, out, dp.logs())
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	redactThrough(t, dp, lines[len(lines)-1])
	dp.stop(t)
	if err := os.RemoveAll(filepath.Join(home, "data-inplace")); err != nil {
		t.Fatal(err)
	}

	// 3. install.sh refuses a damaged bundle and too old a glibc.
	readme := filepath.Join(bdir, "README.md")
	orig, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(tmp, "inst")
	if err := os.WriteFile(readme, append(orig, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runIn(t, home, env, filepath.Join(bdir, "install.sh"), "--prefix", prefix, "--no-systemd"); err == nil || !strings.Contains(out, "does not match its SHA256SUMS") {
		t.Fatalf("install.sh accepted a changed file: %v\n%s", err, out)
	}
	if err := os.WriteFile(readme, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	fake := filepath.Join(tmp, "fakebin")
	if err := os.Mkdir(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(fake, "getconf"), []byte("#!/bin/sh\necho glibc 2.17\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	oldEnv := append([]string{"PATH=" + fake + ":/usr/local/bin:/usr/bin:/bin"}, env[1:]...)
	if out, err := runIn(t, home, oldEnv, filepath.Join(bdir, "install.sh"), "--prefix", prefix, "--no-systemd"); err == nil || !strings.Contains(out, "glibc 2.17 is too old") {
		t.Fatalf("install.sh accepted glibc 2.17: %v\n%s", err, out)
	}
	if _, err := os.Stat(prefix); err == nil {
		t.Fatal("a refused install left files behind")
	}

	// 4. Install into a custom prefix and check it with doctor.
	out, err = runIn(t, home, env, filepath.Join(bdir, "install.sh"), "--prefix", prefix, "--no-systemd")
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	if !strings.Contains(out, "keys create") {
		t.Errorf("install.sh printed no next steps:\n%s", out)
	}
	bin := filepath.Join(prefix, "bin", "redactd")
	conf := filepath.Join(prefix, "etc", "redactd", "redactd.json")
	out, err = runIn(t, home, env, bin, "doctor", "--config", conf)
	if err != nil {
		t.Fatalf("doctor: %v\n%s", err, out)
	}
	for _, want := range []string{
		"onnxruntime: " + filepath.Join(prefix, "lib/redactd/libonnxruntime.so.1") + " loaded",
		"1 file(s) match " + filepath.Join(prefix, "lib/redactd/SHA256SUMS"),
		"4 file(s) match " + filepath.Join(prefix, "share/redactd/models/SHA256SUMS"),
		"ner model: builtin",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, root) {
		t.Errorf("the installed doctor found something in the repository %s:\n%s", root, out)
	}
	// Without the config file, the installed binary finds the prefix's
	// library and models beside itself.
	out, err = runIn(t, home, env, bin, "doctor", "--data", filepath.Join(tmp, "noconf-data"))
	if err != nil {
		t.Fatalf("doctor without --config: %v\n%s", err, out)
	}
	for _, want := range []string{
		"onnxruntime: " + filepath.Join(prefix, "lib/redactd/libonnxruntime.so.1") + " loaded",
		"4 file(s) match " + filepath.Join(prefix, "share/redactd/models/SHA256SUMS") + "; found beside the executable",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor without --config lacks %q:\n%s", want, out)
		}
	}

	// 5. Serve from the installation.
	d := startService(t, home, env, bin, "serve", "--config", conf, "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--log-format", "json")
	out, err = runIn(t, home, env, bin, "keys", "create", "--config", conf, "--email", "bundle@example.com", "--plan", "standard")
	if err != nil {
		t.Fatalf("keys create: %v\n%s\n%s", err, out, d.logs())
	}
	lines = strings.Split(strings.TrimSpace(out), "\n")
	key := lines[len(lines)-1]

	// 6. Redact a PDF through the API.
	redactThrough(t, d, key)

	// 7. Clean stop.
	d.stop(t)
}

// redactThrough redacts a small PDF through the running service's HTTP API
// with key and checks the output.
func redactThrough(t *testing.T, d *service, key string) {
	t.Helper()
	doc := testpdf.New()
	p := doc.AddPage(595, 842, 0)
	p.Text(72, 760, 12, "Customer: jane.doe@example.com")
	p.Text(72, 740, 12, "IBAN DE89 3704 0044 0532 0130 00")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("files", "invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(doc.Bytes())
	mw.WriteField("retention", "ephemeral")
	mw.Close()
	c := &client{t: t, url: d.url, key: key}
	var job jobJSON
	if st := c.do("POST", "/v1/jobs", mw.FormDataContentType(), &body, &job); st != http.StatusOK || job.JobID == "" {
		t.Fatalf("create job: %d %+v\n%s", st, job, d.logs())
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if st := c.do("GET", "/v1/jobs/"+job.JobID, "", nil, &job); st != http.StatusOK {
			t.Fatalf("get job: %d", st)
		}
		if len(job.Documents) == 1 && (job.Documents[0].Status == "redacted" || job.Documents[0].Status == "error") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job not finished: %+v\n%s", job, d.logs())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if doc := job.Documents[0]; doc.Status != "redacted" || doc.PageCount != 1 {
		t.Fatalf("document %+v\n%s", doc, d.logs())
	}
	var pdf []byte
	if st := c.do("GET", "/v1/documents/"+job.Documents[0].ID+"/output", "", nil, &pdf); st != http.StatusOK {
		t.Fatalf("output: %d", st)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("output is not a PDF: %q", pdf[:min(len(pdf), 16)])
	}
	if err := pdfout.Verify(bytes.NewReader(pdf), int64(len(pdf))); err != nil {
		t.Fatalf("output fails verification: %v", err)
	}
	if bytes.Contains(pdf, []byte("jane.doe")) {
		t.Fatal("output still holds the text")
	}

}

// service is the running redactd serve.
type service struct {
	cmd  *exec.Cmd
	url  string
	mu   sync.Mutex
	log  bytes.Buffer
	done chan struct{}
}

func (s *service) logs() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

func startService(t *testing.T, dir string, env []string, bin string, args ...string) *service {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &service{cmd: cmd, done: make(chan struct{})}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log.WriteString(line + "\n")
			s.mu.Unlock()
			var m struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &m) == nil && m.Msg == "listening" {
				select {
				case addr <- m.Addr:
				default:
				}
			}
		}
	}()
	go func() { cmd.Wait(); close(s.done) }()
	t.Cleanup(func() {
		select {
		case <-s.done:
		default:
			cmd.Process.Kill()
			<-s.done
		}
	})
	select {
	case a := <-addr:
		s.url = "http://" + a
	case <-s.done:
		t.Fatalf("redactd exited at start:\n%s", s.logs())
	case <-time.After(90 * time.Second):
		t.Fatalf("redactd did not start:\n%s", s.logs())
	}
	return s
}

// stop sends SIGTERM and expects exit status 0.
func (s *service) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	case <-time.After(90 * time.Second):
		t.Fatalf("no exit after SIGTERM:\n%s", s.logs())
	}
	if code := s.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit status %d after SIGTERM:\n%s", code, s.logs())
	}
}

type jobJSON struct {
	JobID     string `json:"job_id"`
	Status    string `json:"status"`
	Documents []struct {
		ID        string `json:"id"`
		Status    string `json:"status"`
		PageCount int    `json:"page_count"`
	} `json:"documents"`
}

type client struct {
	t        *testing.T
	url, key string
	hc       http.Client
}

// do sends a request with the API key; out is a JSON target or *[]byte.
func (c *client) do(method, path, contentType string, body io.Reader, out any) int {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, body)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("X-API-Key", c.key)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c.hc.Timeout = time.Minute
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	if resp.StatusCode == http.StatusOK {
		switch o := out.(type) {
		case *[]byte:
			*o = b
		case nil:
		default:
			if err := json.Unmarshal(b, o); err != nil {
				c.t.Fatalf("%s %s: %v: %s", method, path, err, b)
			}
		}
	} else {
		c.t.Logf("%s %s: %d %s", method, path, resp.StatusCode, fmt.Sprint(string(b)))
	}
	return resp.StatusCode
}

// glibcAtMost reports whether req ("glibc X.Y") names a glibc no newer
// than major.minor.
func glibcAtMost(req string, major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(req, "glibc %d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma < major || ma == major && mi <= minor
}

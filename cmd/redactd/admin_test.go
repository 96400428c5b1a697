package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"

	"github.com/redactd/redactd/internal/testkit"
)

// openTestEngine opens the real engine with the real pipeline on a
// temporary data directory.
func openTestEngine(t *testing.T) (config.Config, *jobs.Engine) {
	t.Helper()
	cfg := config.Default()
	cfg.Data = t.TempDir()
	cfg.OCR = "off"
	log := slog.New(slog.DiscardHandler)
	reg := wire.NewRegistry()
	proc, err := newProcessor(cfg, log, reg)
	testkit.SkipShortWithoutModels(t, err)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := jobs.Open(wire.Engine(cfg, reg), proc.Processor, log)
	if err != nil {
		proc.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		eng.Close()
		proc.Close()
	})
	return cfg, eng
}

// shortSock returns a socket path short enough for sun_path (108 bytes);
// t.TempDir() paths can exceed it.
func shortSock(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "rd")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "admin.sock")
}

func TestAdminSocket(t *testing.T) {
	_, eng := openTestEngine(t)
	sock := shortSock(t)
	a, err := startAdmin(sock, true, eng, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	fi, err := os.Stat(sock)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket mode %v, %v", fi.Mode(), err)
	}
	if !adminAnswers(sock) {
		t.Fatal("admin socket does not answer")
	}
	if _, err := startAdmin(sock, false, eng, slog.New(slog.DiscardHandler)); err == nil {
		t.Fatal("second admin server on a live socket started")
	}

	ctx := context.Background()
	c := newAdminClient(sock)
	key, info, err := c.CreateKey(ctx, "ops@example.com", jobs.PlanStandard, 42)
	if err != nil {
		t.Fatal(err)
	}
	acct, err := eng.Authenticate(ctx, key)
	if err != nil || acct.ID != info.AccountID || acct.Email != "ops@example.com" || acct.PagesQuota != 42 {
		t.Fatalf("key from the socket: %+v %v (info %+v)", acct, err, info)
	}
	ks, err := c.ListKeys(ctx)
	if err != nil || len(ks) != 1 || ks[0].ID != info.ID || ks[0].Revoked {
		t.Fatalf("list = %+v, %v", ks, err)
	}

	opts := jobs.Options{Categories: []page.Category{page.Email}, Included: []string{"Blue Falcon"}, Excluded: []string{}}
	if err := c.SetDefaults(ctx, "ops@example.com", opts); err != nil {
		t.Fatal(err)
	}
	acct, _ = eng.Authenticate(ctx, key)
	if !reflect.DeepEqual(acct.Defaults.Categories, opts.Categories) || !reflect.DeepEqual(acct.Defaults.Included, opts.Included) {
		t.Fatalf("defaults = %+v", acct.Defaults)
	}

	if err := c.RevokeKey(ctx, info.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.Authenticate(ctx, key); !errors.Is(err, jobs.ErrUnauthorized) {
		t.Fatalf("revoked key authenticates: %v", err)
	}
	if err := c.RevokeKey(ctx, "no-such-key"); !errors.Is(err, jobs.ErrNotFound) {
		t.Fatalf("revoke unknown = %v, want ErrNotFound", err)
	}

	// pprof is there when enabled.
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(conn, "GET /debug/pprof/ HTTP/1.0\r\n\r\n")
	b, _ := io.ReadAll(conn)
	conn.Close()
	if !bytes.Contains(b, []byte("200 OK")) || !bytes.Contains(b, []byte("goroutine")) {
		t.Fatalf("pprof: %.200s", b)
	}

	a.Close()
	if adminAnswers(sock) {
		t.Fatal("closed admin socket still answers")
	}
	if _, err := os.Stat(sock); !os.IsNotExist(err) {
		t.Fatal("socket file left after Close")
	}
}

func TestAdminStaleSocket(t *testing.T) {
	_, eng := openTestEngine(t)
	sock := shortSock(t)
	// A socket file nobody listens on, as a crash leaves it.
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Stat(sock); err != nil {
		t.Fatal("setup: stale socket missing")
	}
	a, err := startAdmin(sock, false, eng, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	a.Close()
}

// TestCLIThroughSocket runs the keys and defaults commands the way an
// operator does while the server holds the store.
func TestCLIThroughSocket(t *testing.T) {
	cfg, eng := openTestEngine(t)
	sock := adminSocket(cfg)
	if len(sock) > 100 {
		sock = shortSock(t)
	}
	a, err := startAdmin(sock, false, eng, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	common := []string{"--data", cfg.Data, "--admin-socket", sock}

	var out, errb bytes.Buffer
	if code := run(append([]string{"keys", "create", "--email", "cli@example.com", "--plan", "standard"}, common...), &out, &errb); code != 0 {
		t.Fatalf("keys create: %d %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	key := lines[len(lines)-1]
	acct, err := eng.Authenticate(context.Background(), key)
	if err != nil || acct.Email != "cli@example.com" {
		t.Fatalf("last line %q is not the key: %v", key, err)
	}

	out.Reset()
	if code := run(append([]string{"keys", "list"}, common...), &out, &errb); code != 0 || !strings.Contains(out.String(), "cli@example.com") {
		t.Fatalf("keys list: %d %q %s", code, out.String(), errb.String())
	}
	id := strings.Fields(strings.Split(out.String(), "\n")[1])[0]

	out.Reset()
	if code := run(append([]string{"defaults", "set", "--email", "cli@example.com", "--categories", `["Person"]`, "--exclude", `[]`}, common...), &out, &errb); code != 0 {
		t.Fatalf("defaults set: %d %s", code, errb.String())
	}
	acct, _ = eng.Authenticate(context.Background(), key)
	if !reflect.DeepEqual(acct.Defaults.Categories, []page.Category{page.Person}) {
		t.Fatalf("defaults = %+v", acct.Defaults)
	}
	errb.Reset()
	if code := run(append([]string{"defaults", "set", "--email", "cli@example.com", "--categories", `["SSN"]`}, common...), &out, &errb); code != exitUsage || !strings.Contains(errb.String(), "--categories") {
		t.Fatalf("bad category: %d %s", code, errb.String())
	}

	if code := run(append([]string{"keys", "revoke", id}, common...), &out, &errb); code != 0 {
		t.Fatalf("keys revoke: %d %s", code, errb.String())
	}
	if _, err := eng.Authenticate(context.Background(), key); !errors.Is(err, jobs.ErrUnauthorized) {
		t.Fatal("key still valid after revoke")
	}
}

func TestCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"config-reference"}, &out, &errb); code != 0 || out.String() != config.Reference() {
		t.Fatalf("config-reference: %d", code)
	}
	for _, args := range [][]string{{}, {"nope"}, {"keys"}, {"keys", "create"}, {"keys", "create", "--email", "x@y", "--plan", "gold"}, {"keys", "revoke"}, {"defaults", "set"}, {"serve", "--no-such-flag"}, {"serve", "extra"}} {
		errb.Reset()
		if code := run(args, &out, &errb); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, errb.String())
		}
	}
	if code := run([]string{"serve", "--dpi", "1000"}, &out, &errb); code != exitError {
		t.Errorf("invalid config: exit %d", code)
	}
}

// TestCLIDirect runs the keys and defaults commands with no server: they
// open the store themselves (without processing) and close it.
func TestCLIDirect(t *testing.T) {
	data := t.TempDir()
	sock := shortSock(t)
	common := []string{"--data", data, "--admin-socket", sock}
	var out, errb bytes.Buffer
	if code := run(append([]string{"keys", "create", "--email", "direct@example.com", "--pages", "7"}, common...), &out, &errb); code != 0 {
		t.Fatalf("keys create: %d %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	key := lines[len(lines)-1]
	if !strings.HasPrefix(lines[0], "key id:") || strings.ContainsAny(key, " \t:") {
		t.Fatalf("output %q", out.String())
	}
	if code := run(append([]string{"defaults", "set", "--email", "direct@example.com", "--include", `["Falcon"]`}, common...), &out, &errb); code != 0 {
		t.Fatalf("defaults set: %d %s", code, errb.String())
	}
	out.Reset()
	if code := run(append([]string{"keys", "list"}, common...), &out, &errb); code != 0 || !strings.Contains(out.String(), "direct@example.com") {
		t.Fatalf("keys list: %d %q", code, out.String())
	}
	id := strings.Fields(strings.Split(out.String(), "\n")[1])[0]
	if code := run([]string{"keys", "revoke", "--data", data, "--admin-socket", sock, id}, &out, &errb); code != 0 {
		t.Fatalf("keys revoke: %d %s", code, errb.String())
	}
	errb.Reset()
	if code := run(append([]string{"keys", "revoke", "nope"}, common...), &out, &errb); code != exitError || !strings.Contains(errb.String(), "not found") {
		t.Fatalf("revoke unknown: %d %s", code, errb.String())
	}

	// The store was closed each time: the server opens it and knows the
	// account, with the key revoked and the defaults saved.
	cfg := config.Default()
	cfg.Data = data
	eng, err := jobs.Open(wire.Engine(cfg, nil), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.Authenticate(context.Background(), key); !errors.Is(err, jobs.ErrUnauthorized) {
		t.Fatalf("revoked key: %v", err)
	}
}

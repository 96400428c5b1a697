package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// lastLine runs redactd with args and returns the last line of stdout.
func lastLine(t *testing.T, args ...string) (string, int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	return lines[len(lines)-1], code, errb.String()
}

// TestKeysWebhookSecret: `keys webhook-secret` prints the account's secret
// alone on its last line, the same one each time, a new one with
// --rotate; directly on the store and through a running server's admin
// socket; an unknown e-mail is an error.
func TestKeysWebhookSecret(t *testing.T) {
	data := t.TempDir()
	sock := shortSock(t)
	common := []string{"--data", data, "--admin-socket", sock}
	if _, code, errs := lastLine(t, append([]string{"keys", "create", "--email", "hook@example.com"}, common...)...); code != 0 {
		t.Fatalf("keys create: %d %s", code, errs)
	}
	first, code, errs := lastLine(t, append([]string{"keys", "webhook-secret", "--email", "hook@example.com"}, common...)...)
	if code != 0 || !strings.HasPrefix(first, "whsec_") || len(first) != len("whsec_")+64 {
		t.Fatalf("webhook-secret: %d %q %s", code, first, errs)
	}
	again, _, _ := lastLine(t, append([]string{"keys", "webhook-secret", "--email", "HOOK@example.com"}, common...)...)
	if again != first {
		t.Fatalf("second call gave %q, want the same %q", again, first)
	}
	rotated, code, _ := lastLine(t, append([]string{"keys", "webhook-secret", "--email", "hook@example.com", "--rotate"}, common...)...)
	if code != 0 || rotated == first || !strings.HasPrefix(rotated, "whsec_") {
		t.Fatalf("rotate: %d %q", code, rotated)
	}
	if _, code, errs := lastLine(t, append([]string{"keys", "webhook-secret", "--email", "nobody@example.com"}, common...)...); code != exitError || !strings.Contains(errs, "no account") {
		t.Fatalf("unknown e-mail: %d %s", code, errs)
	}
	if _, code, _ := lastLine(t, append([]string{"keys", "webhook-secret"}, common...)...); code != exitUsage {
		t.Fatalf("no --email: exit %d", code)
	}

	// Through the admin socket of a running server.
	cfg, eng := openTestEngine(t)
	sock2 := shortSock(t)
	a, err := startAdmin(sock2, false, eng, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	c2 := []string{"--data", cfg.Data, "--admin-socket", sock2}
	if _, code, errs := lastLine(t, append([]string{"keys", "create", "--email", "sock@example.com"}, c2...)...); code != 0 {
		t.Fatalf("keys create: %d %s", code, errs)
	}
	s1, code, errs := lastLine(t, append([]string{"keys", "webhook-secret", "--email", "sock@example.com"}, c2...)...)
	if code != 0 || !strings.HasPrefix(s1, "whsec_") {
		t.Fatalf("through the socket: %d %q %s", code, s1, errs)
	}
	if direct, err := eng.WebhookSecret(t.Context(), "sock@example.com", false); err != nil || direct != s1 {
		t.Fatalf("engine has %q (%v), the command printed %q", direct, err, s1)
	}
}

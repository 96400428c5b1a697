package server_test

import (
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/jobs"
)

// TestE2EWebhookLogsNoHost: deliveries to a name that does not resolve and
// to a port nobody listens on fail, are logged as "dns" and "connection
// refused", and nothing the server logs names the host, the address, the
// port or the URL (docs/behaviour.md: logs carry the job id, attempt and outcome,
// never the URL). Before, the log carried the net error's text:
// "lookup no-such-host.invalid on ...: no such host",
// "dial tcp 127.0.0.1:PORT: connect: connection refused".
func TestE2EWebhookLogsNoHost(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()

	cfg := hookConfig(t)
	cfg.WebhookAllowHosts = "no-such-host.invalid,127.0.0.1"
	cfg.WebhookRetryBase = time.Hour // one attempt each
	e := startHooks(t, cfg)
	key := e.key("nohost@example.com", jobs.PlanStandard, 100)
	const token = "tok-Wq93Lr"
	jobs := map[string]string{}
	for url, failure := range map[string]string{
		"https://no-such-host.invalid/hooks/redactd?token=" + token:  "dns",
		"http://127.0.0.1:" + port + "/hooks/redactd?token=" + token: "connection refused",
	} {
		j := e.job(e.create(key, form{files: [][2]string{{"a.pdf", samplePDF(1)}}, fields: [][2]string{{"callback_url", url}}}, nil))
		jobs[j.JobID] = failure
	}
	deadline := time.Now().Add(30 * time.Second)
	for strings.Count(e.logs.String(), `"msg":"webhook attempt failed"`) < len(jobs) {
		if time.Now().After(deadline) {
			t.Fatalf("attempts not logged:\n%s", e.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	logs := e.logs.String()
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, `"msg":"webhook attempt failed"`) {
			continue
		}
		for id, failure := range jobs {
			if strings.Contains(line, `"job":"`+id+`"`) && !strings.Contains(line, `"failure":"`+failure+`"`) {
				t.Errorf("job %s: %s, want failure %q", id, line, failure)
			}
		}
	}
	for _, s := range []string{"no-such-host", ".invalid", "127.0.0.1:" + port, ":" + port, "/hooks/redactd", token} {
		if strings.Contains(logs, s) {
			t.Errorf("the logs carry %q:\n%s", s, logs)
		}
	}
}

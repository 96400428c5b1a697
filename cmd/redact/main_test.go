package main

import (
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseArgs(t *testing.T) {
	keyEnv := env(map[string]string{"REDACT_API_KEY": "k"})
	tests := []struct {
		name  string
		args  []string
		env   func(string) string
		check func(t *testing.T, c *cliConfig)
		usage bool
	}{
		{name: "flags after files", args: []string{"a.pdf", "b.png", "-o", "out", "--categories", "Person,Email", "--retention", "studio"}, env: keyEnv,
			check: func(t *testing.T, c *cliConfig) {
				if !reflect.DeepEqual(c.files, []string{"a.pdf", "b.png"}) || c.outDir != "out" || c.opts.Retention != "studio" {
					t.Fatalf("%+v", c)
				}
				if !reflect.DeepEqual(c.opts.Categories, []string{"Person", "Email"}) || c.opts.Included != nil || c.opts.Excluded != nil {
					t.Fatalf("opts %+v", c.opts)
				}
				if c.url != defaultURL || c.key != "k" || c.directOver != 8<<20 {
					t.Fatalf("url %q key %q split %d", c.url, c.key, c.directOver)
				}
			}},
		{name: "flags between files", args: []string{"--include", `["a,b","c"]`, "x.pdf", "--exclude", "", "y.pdf"}, env: keyEnv,
			check: func(t *testing.T, c *cliConfig) {
				if !reflect.DeepEqual(c.files, []string{"x.pdf", "y.pdf"}) {
					t.Fatal(c.files)
				}
				if !reflect.DeepEqual(c.opts.Included, []string{"a,b", "c"}) || c.opts.Excluded == nil || len(c.opts.Excluded) != 0 {
					t.Fatalf("opts %#v", c.opts)
				}
			}},
		{name: "dash dash", args: []string{"-o", "d", "--", "-weird.pdf", "--url"}, env: keyEnv,
			check: func(t *testing.T, c *cliConfig) {
				if !reflect.DeepEqual(c.files, []string{"-weird.pdf", "--url"}) {
					t.Fatal(c.files)
				}
			}},
		{name: "env url and split", args: []string{"a.pdf", "--direct-over", "500KiB"}, env: env(map[string]string{"REDACT_API_KEY": "k", "REDACT_URL": "https://r.example"}),
			check: func(t *testing.T, c *cliConfig) {
				if c.url != "https://r.example" || c.directOver != 500<<10 {
					t.Fatalf("%q %d", c.url, c.directOver)
				}
			}},
		{name: "no files", args: []string{"-o", "x"}, env: keyEnv, usage: true},
		{name: "no key", args: []string{"a.pdf"}, env: env(nil), usage: true},
		{name: "bad retention", args: []string{"a.pdf", "--retention", "forever"}, env: keyEnv, usage: true},
		{name: "bad url", args: []string{"a.pdf", "--url", "ftp://x"}, env: keyEnv, usage: true},
		{name: "bad size", args: []string{"a.pdf", "--direct-over", "8XB"}, env: keyEnv, usage: true},
		{name: "bad json list", args: []string{"a.pdf", "--include", `["a"`}, env: keyEnv, usage: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseArgs(tt.args, tt.env, io.Discard)
			if tt.usage {
				if err == nil {
					t.Fatalf("accepted: %+v", c)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func TestSizeFlag(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "123": 123, "8MB": 8 << 20, "8 MiB": 8 << 20, "1.5k": 1536, "2G": 2 << 30} {
		var f sizeFlag
		if err := f.Set(in); err != nil || int64(f) != want {
			t.Errorf("Set(%q) = %d, %v; want %d", in, f, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "5PB"} {
		var f sizeFlag
		if f.Set(in) == nil {
			t.Errorf("Set(%q) accepted", in)
		}
	}
}

func TestOutputPath(t *testing.T) {
	r := &runner{cfg: &cliConfig{outDir: "out"}, used: map[string]bool{}}
	got := []string{r.outputPath("a/x.pdf"), r.outputPath("b/x.pdf"), r.outputPath("x.png"), r.outputPath("y")}
	want := []string{"out/x-redacted.pdf", "out/x-2-redacted.pdf", "out/x-3-redacted.pdf", "out/y-redacted.pdf"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v want %v", got, want)
	}
}

func TestDecodeError(t *testing.T) {
	resp := &http.Response{StatusCode: 402, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{"error":"Insufficient quota","code":"quota_exceeded","request_id":"r1"}`))}
	err := decode(resp, nil)
	ae, ok := err.(*apiError)
	if !ok || ae.Status != 402 || ae.Code != "quota_exceeded" || ae.RequestID != "r1" {
		t.Fatalf("%#v", err)
	}
	if s := err.Error(); !strings.Contains(s, "Insufficient quota") || !strings.Contains(s, "request_id r1") {
		t.Fatal(s)
	}
	// A non-JSON body (a proxy's page) still yields a status and the
	// header's request id.
	resp = &http.Response{StatusCode: 502, Header: http.Header{"X-Request-Id": {"r2"}}, Body: io.NopCloser(strings.NewReader("<html>bad gateway</html>"))}
	ae = decode(resp, nil).(*apiError)
	if ae.Status != 502 || ae.RequestID != "r2" {
		t.Fatalf("%#v", ae)
	}
}

package config

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"
)

// referenceDoc is the configuration reference, whose table is generated
// from the settings defined here.
const referenceDoc = "../../docs/configuration.md"

// TestConfigurationReference fails when docs/configuration.md's table
// differs from the settings defined here: regenerate it with
// `redactd config-reference`.
func TestConfigurationReference(t *testing.T) {
	b, err := os.ReadFile(referenceDoc)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- config-reference:begin -->\n", "<!-- config-reference:end -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no config-reference markers", referenceDoc)
	}
	if got := s[i+len(begin) : j]; got != Reference() {
		t.Errorf("%s: the configuration table is out of date; regenerate it with `redactd config-reference`", referenceDoc)
	}
}

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/c.json"
	if err := os.WriteFile(file, []byte(`{"dpi": 100, "listen": "127.0.0.1:1", "rate-limit": 5}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("REDACTD_LISTEN", "127.0.0.1:2")
	t.Setenv("REDACTD_RATE_LIMIT", "7")
	fs := newFlagSet()
	c, err := Load(fs, []string{"--config", file, "--rate-limit", "9"})
	if err != nil {
		t.Fatal(err)
	}
	if c.DPI != 100 || c.Listen != "127.0.0.1:2" || c.RateLimit != 9 {
		t.Errorf("dpi %v listen %q rate %v: want file 100, env 127.0.0.1:2, flag 9", c.DPI, c.Listen, c.RateLimit)
	}
	if c.Workers != 0 || c.OutputTTL.Hours() != 24 {
		t.Errorf("defaults not applied: %+v", c)
	}
	for _, good := range []string{"ppocrv4", "redactd-latin"} {
		if c, err := Load(newFlagSet(), []string{"--ocr-model", good}); err != nil || c.OCRModel != good {
			t.Errorf("--ocr-model %s: %q, %v", good, c.OCRModel, err)
		}
	}
	for _, bad := range [][]string{{"--dpi", "5"}, {"--device", "tpu"}, {"--upload-url-ttl", "soon"}, {"--ocr-model", "tesseract"}, {"--ner-multilingual-english-prob", "1.5"}} {
		if _, err := Load(newFlagSet(), bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
	if err := os.WriteFile(file, []byte(`{"no-such-setting": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(newFlagSet(), []string{"--config", file}); err == nil {
		t.Error("unknown key in config file accepted")
	}
}

func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

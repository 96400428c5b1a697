package contract

import (
	"errors"
	"testing"
)

// langErr is CheckLanguage's error alone.
func langErr(s string) error { _, err := CheckLanguage(s); return err }

// TestLanguageStored checks what CheckLanguage and Options.Validate
// keep: "" for auto, the code otherwise.
func TestLanguageStored(t *testing.T) {
	for in, want := range map[string]string{"auto": "", "de": "de", "it": "it"} {
		if got, err := CheckLanguage(in); got != want || err != nil {
			t.Errorf("CheckLanguage(%q) = %q, %v; want %q", in, got, err, want)
		}
		o, err := Options{Language: in}.Validate(Limits{MaxTerms: 1})
		if o.Language != want || err != nil {
			t.Errorf("Validate(language %q) = %q, %v; want %q", in, o.Language, err, want)
		}
	}
	if _, err := (Options{Language: "xx"}).Validate(Limits{MaxTerms: 1}); err == nil {
		t.Error("Validate accepted language xx")
	}
}

// TestRequestRules holds every file and retention rule at its boundary,
// with the one wording the HTTP layer and the engine both answer with.
func TestRequestRules(t *testing.T) {
	lim := Limits{MaxTerms: 3, MaxFiles: 2, MaxFileBytes: 100}
	cases := []struct {
		name     string
		err      error
		want     string // the *FieldError's Error(); "" means accepted
		tooLarge bool
	}{
		{"one file", CheckFileCount(1, lim), "", false},
		{"max files", CheckFileCount(2, lim), "", false},
		{"no file", CheckFileCount(0, lim), "files: at least one file is required", false},
		{"too many files", CheckFileCount(3, lim), "files: at most 2 files per job", false},
		{"one byte", CheckFileSize(0, 1, lim), "", false},
		{"at the limit", CheckFileSize(0, 100, lim), "", false},
		{"empty", CheckFileSize(1, 0, lim), "files[1]: file is empty", false},
		{"over the limit", CheckFileSize(1, 101, lim), "files[1]: file exceeds the limit of 100 bytes", false},
		{"init PDF", CheckInitFile(0, "application/pdf", 100, lim), "", false},
		{"init PDF with parameters", CheckInitFile(0, "application/PDF; charset=binary", 1, lim), "", false},
		{"init PNG", CheckInitFile(1, "image/png", 10, lim), "files[1].content_type: must be application/pdf (direct upload takes PDFs only)", false},
		{"init no type", CheckInitFile(0, "", 10, lim), "files[0].content_type: must be application/pdf (direct upload takes PDFs only)", false},
		{"init type before size", CheckInitFile(0, "text/plain", 0, lim), "files[0].content_type: must be application/pdf (direct upload takes PDFs only)", false},
		{"init zero size", CheckInitFile(0, "application/pdf", 0, lim), "files[0].size_bytes: must be positive (empty files are rejected)", false},
		{"init negative size", CheckInitSize(0, -1, lim), "files[0].size_bytes: must be positive (empty files are rejected)", false},
		{"init over the limit", CheckInitFile(0, "application/pdf", 101, lim), "files[0].size_bytes: file exceeds the limit of 100 bytes", true},
		{"ephemeral", CheckRetention(RetentionEphemeral), "", false},
		{"studio", CheckRetention(RetentionStudio), "", false},
		{"unknown retention", CheckRetention("forever"), `retention: must be "ephemeral" or "studio"`, false},
		{"empty retention", CheckRetention(""), `retention: must be "ephemeral" or "studio"`, false},
		{"callback", CheckCallbackURL("https://hooks.example/x?a=1"), "", false},
		{"empty callback", CheckCallbackURL(""), "callback_url: must be a non-empty URL", false},
		{"callback not UTF-8", CheckCallbackURL("https://h/\xff"), "callback_url: must be a non-empty URL", false},
		{"callback with a space", CheckCallbackURL("https://h/a b"), "callback_url: must not contain spaces or control characters", false},
		{"callback with DEL", CheckCallbackURL("https://h/\x7f"), "callback_url: must not contain spaces or control characters", false},
		{"callback with CRLF", CheckCallbackURL("https://h/\r\nX: y"), "callback_url: must not contain spaces or control characters", false},
		{"language auto", langErr("auto"), "", false},
		{"language de", langErr("de"), "", false},
		{"language pt", langErr("pt"), "", false},
		{"unknown language", langErr("xx"), `language: must be "auto" or one of en, de, fr, es, it, nl, pt`, false},
		{"upper-case language", langErr("DE"), `language: must be "auto" or one of en, de, fr, es, it, nl, pt`, false},
		{"empty language", langErr(""), `language: must be "auto" or one of en, de, fr, es, it, nl, pt`, false},
		{"language with a region", langErr("pt-BR"), `language: must be "auto" or one of en, de, fr, es, it, nl, pt`, false},
	}
	for _, c := range cases {
		if c.want == "" {
			if c.err != nil {
				t.Errorf("%s: refused: %v", c.name, c.err)
			}
			continue
		}
		var fe *FieldError
		if !errors.As(c.err, &fe) {
			t.Errorf("%s: err %v, want a *FieldError", c.name, c.err)
			continue
		}
		if fe.Error() != c.want || fe.TooLarge != c.tooLarge {
			t.Errorf("%s: %q (too large %v), want %q (%v)", c.name, fe.Error(), fe.TooLarge, c.want, c.tooLarge)
		}
	}
}

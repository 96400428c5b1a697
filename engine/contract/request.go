package contract

import (
	"fmt"
	"mime"
	"slices"
	"strings"
	"unicode/utf8"
)

// The request rules beside the options' (validate.go): how many files a
// job has, how large each is, what a direct upload announces, and the
// retention. Each rule has one wording, here; the HTTP layer applies
// them as it parses a request and the engine again on what it is handed,
// so a request cannot pass one and fail the other, and a caller reads
// the same message whichever refused it.

// Field names of a job-creation request, as the interface spells them.
const (
	FieldFiles     = "files"
	FieldRetention = "retention"
	FieldCallback  = "callback_url"
	FieldLanguage  = "language" // extension (issue 46): the language hint
)

// LanguageAuto is the language hint's default: every block's language is
// told from its text alone.
const LanguageAuto = "auto"

// The retentions a job may ask for.
const (
	RetentionEphemeral = "ephemeral"
	RetentionStudio    = "studio"
)

// Languages are the ISO 639-1 codes of the languages the service
// redacts, as engine/detect/lang identifies them (lang.Codes; the
// contract is a leaf and does not import it: lang's TestContractLanguages
// holds the two lists equal).
var Languages = []string{"en", "de", "fr", "es", "it", "nl", "pt"}

// CheckLanguage is the rule for the language hint: "auto" or one of
// Languages, lower case. It returns the hint as stored: "" for "auto".
func CheckLanguage(s string) (string, error) {
	if s == LanguageAuto {
		return "", nil
	}
	if slices.Contains(Languages, s) {
		return s, nil
	}
	return "", &FieldError{Field: FieldLanguage, Msg: fmt.Sprintf("must be %q or one of %s", LanguageAuto, languageList())}
}

func languageList() string {
	var b strings.Builder
	for i, c := range Languages {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c)
	}
	return b.String()
}

// FileField names file i of a request ("files[2]").
func FileField(i int) string { return fmt.Sprintf("%s[%d]", FieldFiles, i) }

// CheckFileCount is the rule for the number of files in one job: at
// least one, at most lim.MaxFiles.
func CheckFileCount(n int, lim Limits) error {
	switch {
	case n == 0:
		return &FieldError{Field: FieldFiles, Msg: "at least one file is required"}
	case n > lim.MaxFiles:
		return &FieldError{Field: FieldFiles, Msg: fmt.Sprintf("at most %d files per job", lim.MaxFiles)}
	}
	return nil
}

// CheckFileSize is the rule for file i of a multipart job, size bytes
// long: not empty, at most lim.MaxFileBytes.
func CheckFileSize(i int, size int64, lim Limits) error {
	switch {
	case size == 0:
		return &FieldError{Field: FileField(i), Msg: "file is empty"}
	case size > lim.MaxFileBytes:
		return &FieldError{Field: FileField(i), Msg: fileTooLarge(lim)}
	}
	return nil
}

// CheckInitFile is the rule for file i of a direct-upload reservation,
// as announced: CheckInitType, then CheckInitSize.
func CheckInitFile(i int, contentType string, size int64, lim Limits) error {
	if err := CheckInitType(i, contentType); err != nil {
		return err
	}
	return CheckInitSize(i, size, lim)
}

// CheckInitType is the rule for the type file i of a direct-upload
// reservation announces: a PDF (IsPDFType).
func CheckInitType(i int, contentType string) error {
	if !IsPDFType(contentType) {
		return &FieldError{Field: FileField(i) + ".content_type", Msg: "must be application/pdf (direct upload takes PDFs only)"}
	}
	return nil
}

// CheckInitSize is the rule for the size file i of a direct-upload
// reservation announces: positive, at most lim.MaxFileBytes. A size over
// the limit is TooLarge (the interface's 413).
func CheckInitSize(i int, size int64, lim Limits) error {
	field := FileField(i) + ".size_bytes"
	switch {
	case size <= 0:
		return &FieldError{Field: field, Msg: "must be positive (empty files are rejected)"}
	case size > lim.MaxFileBytes:
		return &FieldError{Field: field, Msg: fileTooLarge(lim), TooLarge: true}
	}
	return nil
}

func fileTooLarge(lim Limits) string {
	return fmt.Sprintf("file exceeds the limit of %d bytes", lim.MaxFileBytes)
}

// IsPDFType reports whether a Content-Type names a PDF (parameters
// allowed), the only type a direct upload takes.
func IsPDFType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/pdf"
}

// CheckRetention is the rule for a retention: ephemeral or studio.
func CheckRetention(r string) error {
	switch r {
	case RetentionEphemeral, RetentionStudio:
		return nil
	}
	return &FieldError{Field: FieldRetention, Msg: `must be "ephemeral" or "studio"`}
}

// CheckCallbackURL is the rule for the form of a callback_url given: not
// empty, valid UTF-8, no spaces or control characters. Whether its host
// may be called is the webhook allow-list's business (engine/webhook).
func CheckCallbackURL(u string) error {
	if u == "" || !utf8.ValidString(u) {
		return &FieldError{Field: FieldCallback, Msg: "must be a non-empty URL"}
	}
	for _, c := range u {
		if c < 0x21 || c == 0x7f {
			return &FieldError{Field: FieldCallback, Msg: "must not contain spaces or control characters"}
		}
	}
	return nil
}

package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
)

// Parsing of the two job-creation bodies lives here as pure functions of
// bytes and limits, so it can be unit-tested and fuzzed without a listener.
// Every rejection is an *APIError whose message starts with the offending
// field. What the engine checks too (file count and size, a direct
// upload's type and size, retention, callback form, options, idempotency
// keys, file names) is engine/contract's rule, in its one wording; what
// is left here is the framing of the two bodies.

const (
	// maxFieldBytes bounds a non-file multipart field (a JSON array of up to
	// MaxTermCount terms of contract.MaxTermRunes each fits comfortably).
	maxFieldBytes = 1 << 20
	// maxInitBodyBytes bounds the JSON body of POST /v1/jobs/init.
	maxInitBodyBytes = 4 << 20
	// maxFileName is the longest file name kept, in bytes.
	maxFileName = contract.MaxFileNameBytes
	// extraParts is how many non-file parts a multipart body may have on top
	// of MaxFiles (one per known field, with room to spare).
	extraParts = 8
)

// Form field names, shared by both create paths.
const (
	fieldFiles      = contract.FieldFiles
	fieldCategories = contract.FieldCategories
	fieldIncluded   = contract.FieldIncluded
	fieldExcluded   = contract.FieldExcluded
	fieldRetention  = contract.FieldRetention
	fieldCallback   = contract.FieldCallback // extension: webhook
	fieldLanguage   = contract.FieldLanguage // extension: language hint
)

// Limits bound what a request may carry.
type Limits struct {
	MaxBodyBytes int64 // whole multipart body
	MaxFileBytes int64 // one file
	MaxFiles     int   // files per job
	MaxTerms     int   // entries in each terms list
}

// rules are the bounds of the request rules the engine shares
// (engine/contract: options, file count, file size).
func (l Limits) rules() contract.Limits {
	return contract.Limits{MaxTerms: l.MaxTerms, MaxFiles: l.MaxFiles, MaxFileBytes: l.MaxFileBytes}
}

// LimitsFrom takes the limits from the server's settings.
func LimitsFrom(cfg Settings) Limits {
	return Limits{
		MaxBodyBytes: cfg.MaxRequestBytes,
		MaxFileBytes: cfg.MaxUploadBytes,
		MaxFiles:     cfg.MaxFilesPerJob,
		MaxTerms:     cfg.MaxTermCount,
	}
}

// PutFile stores a file part as it streams in: the server spools it to
// disk (jobs.Service.Spool); tests and the fuzzer keep it in memory.
// r yields at most lim.MaxFileBytes+1 bytes.
type PutFile func(name string, r io.Reader) (jobs.File, error)

// ParseMultipart parses the multipart/form-data body of POST /v1/jobs,
// handing each file to put as it arrives. contentType is the request's
// Content-Type header. Unknown fields are rejected (a misspelt
// "pii_categories" silently falling back to defaults would redact less
// than the caller asked for). IdempotencyKey is not set: it comes from a
// header. On error the files already put are removed; on success the
// caller removes what CreateJob does not take (CreateJobRequest.Remove).
func ParseMultipart(contentType string, body io.Reader, lim Limits, put PutFile) (req jobs.CreateJobRequest, err error) {
	defer func() {
		if err != nil {
			req.Remove()
			req = jobs.CreateJobRequest{}
		}
	}()
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" {
		return req, invalidf("Content-Type", "must be multipart/form-data")
	}
	boundary := params["boundary"]
	if boundary == "" || len(boundary) > 70 {
		return req, invalidf("Content-Type", "multipart boundary missing or invalid")
	}
	lr := &limitReader{r: body, n: lim.MaxBodyBytes}
	mr := multipart.NewReader(lr, boundary)
	seen := map[string]bool{}
	var cats, incl, excl, ret, callback, language []byte
	for parts := 0; ; parts++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return req, bodyError(lr, "body", "malformed multipart data")
		}
		if parts >= lim.MaxFiles+extraParts {
			return req, invalidf("body", "too many parts (at most %d files)", lim.MaxFiles)
		}
		name := p.FormName()
		switch name {
		case fieldFiles:
			if err := contract.CheckFileCount(len(req.Files)+1, lim.rules()); err != nil {
				return req, mapError(err)
			}
			f, err := readFilePart(p, len(req.Files), lr, lim, put)
			if err != nil {
				return req, err
			}
			req.Files = append(req.Files, f)
		case fieldCategories, fieldIncluded, fieldExcluded, fieldRetention, fieldCallback, fieldLanguage:
			if seen[name] {
				return req, invalidf(name, "given more than once")
			}
			seen[name] = true
			v, err := readField(p, name, lr)
			if err != nil {
				return req, err
			}
			switch name {
			case fieldCategories:
				cats = v
			case fieldIncluded:
				incl = v
			case fieldExcluded:
				excl = v
			case fieldRetention:
				ret = v
			case fieldCallback:
				callback = v
			case fieldLanguage:
				language = v
			}
		case "":
			return req, invalidf("body", "part without a form-data name")
		default:
			return req, invalidf(quoteField(name), "unknown field")
		}
	}
	if err := contract.CheckFileCount(len(req.Files), lim.rules()); err != nil {
		return req, mapError(err)
	}
	if seen[fieldCategories] {
		if req.Options.Categories, err = parseCategories(fieldCategories, cats); err != nil {
			return req, err
		}
	}
	if seen[fieldIncluded] {
		if req.Options.Included, err = parseStringArray(fieldIncluded, incl); err != nil {
			return req, err
		}
	}
	if seen[fieldExcluded] {
		if req.Options.Excluded, err = parseStringArray(fieldExcluded, excl); err != nil {
			return req, err
		}
	}
	if seen[fieldLanguage] {
		if req.Options.Language, err = parseLanguage(string(language)); err != nil {
			return req, err
		}
	}
	if req.Options, err = validateOptions(req.Options, lim); err != nil {
		return req, err
	}
	req.Retention = jobs.Ephemeral
	if seen[fieldRetention] {
		if req.Retention, err = parseRetention(string(ret)); err != nil {
			return req, err
		}
	}
	if seen[fieldCallback] {
		if req.CallbackURL, err = parseCallback(callback); err != nil {
			return req, err
		}
	}
	return req, nil
}

// parseCallback applies contract.CheckCallbackURL (non-empty printable
// UTF-8); the engine checks it against webhook-allow-hosts.
func parseCallback(v []byte) (string, error) {
	if err := contract.CheckCallbackURL(string(v)); err != nil {
		return "", mapError(err)
	}
	return string(v), nil
}

func readFilePart(p *multipart.Part, i int, lr *limitReader, lim Limits, put PutFile) (jobs.File, error) {
	field := contract.FileField(i)
	if p.FileName() == "" {
		return jobs.File{}, invalidf(field, "part has no filename")
	}
	f, err := put(SanitizeFileName(p.FileName()), io.LimitReader(p, lim.MaxFileBytes+1))
	switch {
	case errors.Is(err, jobs.ErrUnavailable):
		return jobs.File{}, err // storage full or failing: 503, not the caller's fault
	case err != nil:
		return jobs.File{}, bodyError(lr, field, "malformed multipart data")
	}
	if err := contract.CheckFileSize(i, f.Size(), lim.rules()); err != nil {
		f.Remove()
		return jobs.File{}, mapError(err)
	}
	return f, nil
}

func readField(p *multipart.Part, name string, lr *limitReader) ([]byte, error) {
	v, err := io.ReadAll(io.LimitReader(p, maxFieldBytes+1))
	if err != nil {
		return nil, bodyError(lr, name, "malformed multipart data")
	}
	if len(v) > maxFieldBytes {
		return nil, invalidf(name, "longer than %d bytes", maxFieldBytes)
	}
	return v, nil
}

// bodyError reports a read failure: 413 when the body limit was hit, else
// a 400 naming field.
func bodyError(lr *limitReader, field, msg string) error {
	if lr.exceeded {
		return tooLargef("request body exceeds the limit of %d bytes", lr.limit())
	}
	return invalidf(field, "%s", msg)
}

// ParseInit parses the JSON body of POST /v1/jobs/init. Unknown fields are
// rejected for the same reason as in ParseMultipart. A file whose
// size_bytes exceeds lim.MaxFileBytes gives 413.
func ParseInit(body []byte, lim Limits) (jobs.InitJobRequest, error) {
	var req jobs.InitJobRequest
	if len(body) > maxInitBodyBytes {
		return req, tooLargef("request body exceeds the limit of %d bytes", maxInitBodyBytes)
	}
	var in struct {
		Files      json.RawMessage `json:"files"`
		Categories json.RawMessage `json:"pii_categories"`
		Included   json.RawMessage `json:"pii_included_terms"`
		Excluded   json.RawMessage `json:"pii_excluded_terms"`
		Retention  json.RawMessage `json:"retention"`
		Callback   json.RawMessage `json:"callback_url"`
		Language   json.RawMessage `json:"language"`
	}
	if err := decodeStrict(body, &in); err != nil {
		return req, invalidf("body", "%s", jsonProblem(err, "a JSON object"))
	}
	var err error
	if req.Files, err = parseInitFiles(in.Files, lim); err != nil {
		return req, err
	}
	if present(in.Categories) {
		if req.Options.Categories, err = parseCategories(fieldCategories, in.Categories); err != nil {
			return req, err
		}
	}
	if present(in.Included) {
		if req.Options.Included, err = parseStringArray(fieldIncluded, in.Included); err != nil {
			return req, err
		}
	}
	if present(in.Excluded) {
		if req.Options.Excluded, err = parseStringArray(fieldExcluded, in.Excluded); err != nil {
			return req, err
		}
	}
	if present(in.Language) {
		var s string
		if !utf8.Valid(in.Language) || json.Unmarshal(in.Language, &s) != nil {
			s = "" // not a string: refused by the language rule, in its words
		}
		if req.Options.Language, err = parseLanguage(s); err != nil {
			return req, err
		}
	}
	if req.Options, err = validateOptions(req.Options, lim); err != nil {
		return req, err
	}
	req.Retention = jobs.Ephemeral
	if present(in.Retention) {
		var s string
		if !utf8.Valid(in.Retention) || json.Unmarshal(in.Retention, &s) != nil {
			s = "" // not a string: refused by the retention rule, in its words
		}
		if req.Retention, err = parseRetention(s); err != nil {
			return req, err
		}
	}
	if present(in.Callback) {
		var s string
		if !utf8.Valid(in.Callback) || json.Unmarshal(in.Callback, &s) != nil {
			return req, invalidf(fieldCallback, "must be a string")
		}
		if req.CallbackURL, err = parseCallback([]byte(s)); err != nil {
			return req, err
		}
	}
	return req, nil
}

// present reports whether a JSON field was given with a non-null value;
// null means the same as omitted.
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

func parseInitFiles(raw json.RawMessage, lim Limits) ([]jobs.InitFile, error) {
	if !present(raw) {
		return nil, mapError(contract.CheckFileCount(0, lim.rules()))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, invalidf(fieldFiles, "must be an array of objects")
	}
	if err := contract.CheckFileCount(len(items), lim.rules()); err != nil {
		return nil, mapError(err)
	}
	out := make([]jobs.InitFile, 0, len(items))
	for i, it := range items {
		f, err := parseInitFile(i, it, lim)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

func parseInitFile(i int, raw json.RawMessage, lim Limits) (jobs.InitFile, error) {
	field := contract.FileField(i)
	var f jobs.InitFile
	var in struct {
		FileName    json.RawMessage `json:"filename"`
		ContentType json.RawMessage `json:"content_type"`
		SizeBytes   json.RawMessage `json:"size_bytes"`
	}
	if err := decodeStrict(raw, &in); err != nil {
		return f, invalidf(field, "%s", jsonProblem(err, "an object with filename, content_type and size_bytes"))
	}
	name, err := jsonString(field+".filename", in.FileName)
	if err != nil {
		return f, err
	}
	if strings.TrimSpace(name) == "" {
		return f, invalidf(field+".filename", "must not be empty")
	}
	ct, err := jsonString(field+".content_type", in.ContentType)
	if err != nil {
		return f, err
	}
	if err := contract.CheckInitType(i, ct); err != nil {
		return f, mapError(err)
	}
	if !present(in.SizeBytes) {
		return f, invalidf(field+".size_bytes", "is required")
	}
	size, err := strconv.ParseInt(string(bytes.TrimSpace(in.SizeBytes)), 10, 64)
	if err != nil {
		return f, invalidf(field+".size_bytes", "must be an integer")
	}
	if err := contract.CheckInitSize(i, size, lim.rules()); err != nil {
		return f, mapError(err)
	}
	return jobs.InitFile{FileName: SanitizeFileName(name), ContentType: "application/pdf", SizeBytes: size}, nil
}

// jsonString decodes a required JSON string field.
func jsonString(field string, raw json.RawMessage) (string, error) {
	if !present(raw) {
		return "", invalidf(field, "is required")
	}
	if !utf8.Valid(raw) {
		return "", invalidf(field, "is not valid UTF-8")
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", invalidf(field, "must be a string")
	}
	return s, nil
}

// parseCategories decodes a JSON array of category names (the multipart
// field's text, or the init body's raw value). It only decodes: the names
// are checked by validateOptions. `null` means omitted (nil); `[]` means
// explicitly none (empty, non-nil).
func parseCategories(field string, raw []byte) ([]page.Category, error) {
	names, err := parseStringArray(field, raw)
	if err != nil || names == nil {
		return nil, err
	}
	out := make([]page.Category, len(names))
	for i, n := range names {
		out[i] = page.Category(n)
	}
	return out, nil
}

// parseStringArray decodes raw as a JSON array of strings; what the
// strings may hold is validateOptions' business. It checks UTF-8 first
// because encoding/json would silently replace invalid bytes with U+FFFD,
// changing what the caller asked to match. `null` means omitted (nil);
// `[]` explicitly none (empty, non-nil).
func parseStringArray(field string, raw []byte) ([]string, error) {
	if !utf8.Valid(raw) {
		return nil, invalidf(field, "is not valid UTF-8")
	}
	if !present(raw) {
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil, invalidf(field, "must be a JSON array of strings")
		}
		return nil, nil // null: same as omitted
	}
	var v []string
	if err := decodeStrict(raw, &v); err != nil {
		return nil, invalidf(field, "must be a JSON array of strings")
	}
	if v == nil {
		v = []string{}
	}
	return v, nil
}

// validateOptions applies the one set of option rules
// (contract.Options.Validate, which the engine and the admin CLI apply
// too) and turns its *contract.FieldError into a 400 naming the same
// field with the same message.
func validateOptions(o jobs.Options, lim Limits) (jobs.Options, error) {
	v, err := o.Validate(lim.rules())
	if err != nil {
		return o, mapError(err)
	}
	return v, nil
}

// parseLanguage applies contract.CheckLanguage: "auto" (stored as "")
// or one of the seven codes.
func parseLanguage(s string) (string, error) {
	l, err := contract.CheckLanguage(s)
	if err != nil {
		return "", mapError(err)
	}
	return l, nil
}

func parseRetention(s string) (jobs.Retention, error) {
	if err := contract.CheckRetention(s); err != nil {
		return "", mapError(err)
	}
	return jobs.Retention(s), nil
}

// ParseIdempotencyKey validates the X-Idempotency-Key header by the one
// rule the engine applies too (contract.CheckIdempotencyKey). Empty
// means none.
func ParseIdempotencyKey(v []byte) (string, error) {
	s := string(v)
	if err := contract.CheckIdempotencyKey(s); err != nil {
		var fe *contract.FieldError
		if errors.As(err, &fe) {
			return "", invalidf(fe.Field, "%s", fe.Msg)
		}
		return "", err
	}
	return s, nil
}

// SanitizeFileName is contract.CleanFileName, the one rule for file names
// the engine applies too.
func SanitizeFileName(name string) string { return contract.CleanFileName(name) }

// decodeStrict decodes one JSON value, rejecting unknown fields and
// trailing data.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errTrailing
	}
	return nil
}

var errTrailing = errors.New("trailing data after the JSON value")

// jsonProblem describes a decode error without echoing the input beyond
// an unknown field's (truncated) name.
func jsonProblem(err error, want string) string {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("field %s has the wrong type", quoteField(te.Field))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		return fmt.Sprintf("unknown field %s", quoteField(name))
	case err == errTrailing:
		return err.Error()
	}
	return "must be " + want
}

// quoteField quotes a caller-supplied name for an error message, cut to
// 64 bytes so a hostile name cannot bloat responses.
func quoteField(s string) string { return contract.QuoteName(s, 64) }

// limitReader reads at most n bytes and remembers whether the source had
// more, so a multipart error can be told apart from an oversized body.
type limitReader struct {
	r        io.Reader
	n        int64
	read     int64
	exceeded bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.read >= l.n {
		// Probe one byte to tell "exactly n" from "more than n".
		var one [1]byte
		k, err := l.r.Read(one[:])
		if k > 0 {
			l.exceeded = true
			return 0, errBodyTooLarge
		}
		return 0, err
	}
	if rem := l.n - l.read; int64(len(p)) > rem {
		p = p[:rem]
	}
	k, err := l.r.Read(p)
	l.read += int64(k)
	return k, err
}

func (l *limitReader) limit() int64 { return l.n }

var errBodyTooLarge = errors.New("request body too large")

package webhook

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// The documented signature format, as docs/behaviour.md ("Webhooks", *Signature*)
// states it:
//
//	`X-Redactd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`, keyed with the
//	account's webhook secret as the string `redactd keys webhook-secret --data DIR --email E` prints alone on its
//	last line (`whsec_` and 64 hex digits; ...)
//
// and server/openapi.json (webhooks.jobFinished) repeats it:
//
//	Header X-Redactd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over \"<t>.<body>\"> keyed with the
//	account's webhook secret (`redactd keys webhook-secret --email E`, used as the string it prints)
const (
	docFormat = `X-Redactd-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<body>">`

	// The vector: a secret shaped like a real one, used as the string it
	// is, a timestamp and a body.
	vecSecret = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	vecT      = 1767225600 // 2026-01-01T00:00:00Z
	vecBody   = `{"job_id":"job_7Qx2","status":"redacted","documents":[]}`
	// vecHeader was computed from the documented format alone, not with
	// Sign, twice, and both agreed:
	//
	//	S=whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
	//	printf '%s.%s' 1767225600 '{"job_id":"job_7Qx2","status":"redacted","documents":[]}' |
	//		openssl dgst -sha256 -hmac "$S"
	//	python3 -c 'import hmac, hashlib, sys; s, t, b = sys.argv[1:]
	//		print(hmac.new(s.encode(), (t + "." + b).encode(), hashlib.sha256).hexdigest())' \
	//		"$S" 1767225600 '{"job_id":"job_7Qx2","status":"redacted","documents":[]}'
	vecHeader = "t=1767225600,v1=96d2eae9154f6e42006d3d1dbe9b9d1de55e1829aa4b65b4c81e45563563d470"
)

// TestSignatureVector pins Sign to the documented format with a value
// computed outside this code, so a change to Sign that Verify follows
// (every other test checks signatures with Verify) cannot pass unnoticed:
// a receiver written to docs/behaviour.md would reject every delivery.
func TestSignatureVector(t *testing.T) {
	if got := Sign([]byte(vecSecret), time.Unix(vecT, 0), []byte(vecBody)); got != vecHeader {
		t.Fatalf("Sign = %q\nwant   %q (HMAC-SHA256 over \"<t>.<body>\" as documented)", got, vecHeader)
	}
	// The time zone of t plays no part; only its Unix seconds.
	if got := Sign([]byte(vecSecret), time.Unix(vecT, 999_999_999).In(time.FixedZone("X", -7*3600)), []byte(vecBody)); got != vecHeader {
		t.Fatalf("Sign with sub-second part and a zone = %q", got)
	}
	if err := Verify([]byte(vecSecret), vecHeader, []byte(vecBody), time.Unix(vecT, 0), time.Minute); err != nil {
		t.Fatalf("Verify rejects the documented vector: %v", err)
	}
	if SignatureHeader != "X-Redactd-Signature" {
		t.Fatalf("header name %q", SignatureHeader)
	}
}

// behaviourDoc is the document that states every behaviour decision,
// the webhook signature among them.
const behaviourDoc = "../../docs/behaviour.md"

// TestSignatureDocumented: docs/behaviour.md and openapi.json state the format
// TestSignatureVector tests, word for word (docFormat).
func TestSignatureDocumented(t *testing.T) {
	readme, err := os.ReadFile(behaviourDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "`"+docFormat+"`") {
		t.Errorf("%s no longer documents the signature as `%s`", behaviourDoc, docFormat)
	}
	if !strings.Contains(string(readme), "keyed with the\n  account's webhook secret as the string `redactd keys webhook-secret") {
		t.Errorf("%s no longer says the key is the secret as the string redactd keys webhook-secret prints", behaviourDoc)
	}

	raw, err := os.ReadFile("../../server/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var found []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			if strings.Contains(v, "X-Redactd-Signature:") {
				found = append(found, v)
			}
		}
	}
	walk(doc)
	if len(found) == 0 {
		t.Fatal("openapi.json does not document X-Redactd-Signature")
	}
	for _, s := range found {
		if !strings.Contains(s, docFormat+" keyed with the account's webhook secret") {
			t.Errorf("openapi.json documents the signature otherwise: %.200q", s)
		}
	}
}

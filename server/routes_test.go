package server

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/redactd/redactd/engine/config"
)

// TestOpenAPIMatchesRoutes keeps openapi.json and the route table in step:
// every registered route is documented and every documented operation is
// registered.
func TestOpenAPIMatchesRoutes(t *testing.T) {
	var doc struct {
		OpenAPI string                                `json:"openapi"`
		Paths   map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi version %q, want 3.1.x", doc.OpenAPI)
	}
	var documented []string
	for path, ops := range doc.Paths {
		for method := range ops {
			switch method {
			case "get", "put", "post", "delete", "patch", "head", "options", "trace":
				documented = append(documented, strings.ToUpper(method)+" "+path)
			}
		}
	}
	s, err := New(defaultSettings(t), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var registered []string
	for _, r := range s.Routes() {
		registered = append(registered, r.Method+" "+r.Pattern)
	}
	sort.Strings(documented)
	sort.Strings(registered)
	if strings.Join(documented, "\n") != strings.Join(registered, "\n") {
		t.Fatalf("openapi.json and routes differ\ndocumented:\n%s\nregistered:\n%s", strings.Join(documented, "\n"), strings.Join(registered, "\n"))
	}
	// Every $ref resolves.
	var all map[string]any
	json.Unmarshal(openAPIDoc, &all)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if k == "$ref" {
					ref := x.(string)
					var cur any = all
					for _, p := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
						m, _ := cur.(map[string]any)
						cur = m[p]
					}
					if cur == nil {
						t.Errorf("unresolved $ref %s", ref)
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(all)
}

func TestMatch(t *testing.T) {
	s, err := New(defaultSettings(t), nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		method, path string
		pattern      string
		params       []string
		allowed      string
	}{
		{"GET", "/v1/me", "/v1/me", nil, ""},
		{"POST", "/v1/jobs/init", "/v1/jobs/init", nil, ""},
		{"POST", "/v1/jobs", "/v1/jobs", nil, ""},
		{"GET", "/v1/jobs/abc", "/v1/jobs/{job_id}", []string{"abc"}, ""},
		{"DELETE", "/v1/jobs/abc", "/v1/jobs/{job_id}", []string{"abc"}, ""},
		{"POST", "/v1/jobs/abc/commit", "/v1/jobs/{job_id}/commit", []string{"abc"}, ""},
		{"GET", "/v1/documents/d/output", "/v1/documents/{doc_id}/output", []string{"d"}, ""},
		{"PUT", "/uploads/d", "/uploads/{doc_id}", []string{"d"}, ""},
		{"GET", "/v1/demo/sample.pdf", "/v1/demo/sample.pdf", nil, ""},
		{"PUT", "/v1/jobs/abc", "", nil, "DELETE, GET, HEAD"},
		{"HEAD", "/healthz", "/healthz", nil, ""},
		{"GET", "/v1/jobs", "/v1/jobs", nil, ""},
		{"DELETE", "/v1/jobs", "", nil, "GET, HEAD, POST"},
		{"GET", "/v1/jobs//commit", "", nil, ""},
		{"GET", "/v1/nothing", "", nil, ""},
		{"GET", "/v1/me/", "", nil, ""},
	}
	for _, tt := range tests {
		rt, params, allowed := s.match(tt.method, tt.path)
		got := ""
		if rt != nil {
			got = rt.pattern
		}
		if got != tt.pattern || strings.Join(params, ",") != strings.Join(tt.params, ",") || allowed != tt.allowed {
			t.Errorf("match(%s %s) = %q %v %q, want %q %v %q", tt.method, tt.path, got, params, allowed, tt.pattern, tt.params, tt.allowed)
		}
	}
}

// defaultSettings are the server's settings at the Config's defaults,
// selected as cmd/redactd/wire does.
func defaultSettings(t testing.TB) Settings {
	t.Helper()
	var s Settings
	if err := config.Select(config.Default(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

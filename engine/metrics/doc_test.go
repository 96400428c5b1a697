package metrics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// docPath is the operator documentation holding the metrics table.
const docPath = "../../deploy/README.md"

// definedNames returns the Name of every metric option literal in
// metrics.go (prometheus.CounterOpts{Name: ...} and the like).
func definedNames(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "metrics.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		kv, ok := n.(*ast.KeyValueExpr)
		if !ok {
			return true
		}
		if id, ok := kv.Key.(*ast.Ident); !ok || id.Name != "Name" {
			return true
		}
		lit, ok := kv.Value.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			t.Errorf("metric Name is not a string literal at %v: keep names literal so they can be documented", kv.Pos())
			return true
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, s)
		return true
	})
	sort.Strings(names)
	return names
}

// documentedNames returns the metric names in the first column of the
// table between the metrics markers of deploy/README.md.
func documentedNames(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "<!-- metrics:begin -->")
	end := strings.Index(doc, "<!-- metrics:end -->")
	if start < 0 || end < start {
		t.Fatalf("%s: no <!-- metrics:begin --> ... <!-- metrics:end --> table", docPath)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_:][a-z0-9_:]*)` \\|")
	got := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(doc[start:end], -1) {
		got[m[1]] = true
	}
	return got
}

// TestMetricsDocumented fails when a metric defined here is missing from
// the operator documentation's table, or the table lists one that no
// longer exists.
func TestMetricsDocumented(t *testing.T) {
	defined := definedNames(t)
	if len(defined) < 10 {
		t.Fatalf("found only %d metric names in metrics.go: %v", len(defined), defined)
	}
	doc := documentedNames(t)
	for _, n := range defined {
		if !doc[n] {
			t.Errorf("metric %s is not in the table of %s", n, docPath)
		}
		delete(doc, n)
	}
	for n := range doc {
		t.Errorf("%s documents metric %s, which metrics.go does not define", docPath, n)
	}
}

// TestDefinedMetricsRegistered checks that the names found in the source
// are exactly the redactd_ metrics the Registry exports, so the source
// scan above sees every registered metric.
func TestDefinedMetricsRegistered(t *testing.T) {
	descs := make(chan *prometheus.Desc, 1024)
	for _, c := range []prometheus.Collector{
		HTTPRequests, HTTPDuration, Errors, RateLimited,
		QueueDepth, DocumentsInFlight, Documents, JobsCreated, QuotaPages, DocumentDuration,
		Pages, StageDuration, OutputBytesPerPage, PixelsInFlight, Detections,
		OCRRegions, FontChecks, FontCheckColumns,
		BatchSize, BatchDuration,
		WebhookAttempts, WebhookDropped, WebhookPending, WebhookDuration,
	} {
		// Registering again must fail as a duplicate: the collector is in
		// Registry already.
		if err := Registry.Register(c); err == nil {
			t.Errorf("a collector was not registered in Registry")
			Registry.Unregister(c)
		} else if _, dup := err.(prometheus.AlreadyRegisteredError); !dup {
			t.Errorf("register: %v", err)
		}
		c.Describe(descs)
	}
	close(descs)
	registered := map[string]bool{}
	re := regexp.MustCompile(`fqName: "([^"]+)"`)
	for d := range descs {
		m := re.FindStringSubmatch(d.String())
		if m == nil {
			t.Fatalf("cannot read the name of %s", d)
		}
		registered[m[1]] = true
	}
	defined := definedNames(t)
	for _, n := range defined {
		if !registered[n] {
			t.Errorf("metric %s is defined but not among the collectors this test lists and finds registered (register it in init and add it above)", n)
		}
		delete(registered, n)
	}
	for n := range registered {
		t.Errorf("registered metric %s was not found in metrics.go", n)
	}
}

package wire

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline"
	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/engine/webhook"
	"github.com/redactd/redactd/server"
)

// docPath is the operator documentation holding the metrics table.
const docPath = "../../../deploy/README.md"

// recorder is a Registerer that keeps the fully-qualified name of every
// metric registered on it (and registers them on a real registry, so a
// duplicate name still fails).
type recorder struct {
	reg   *prometheus.Registry
	names map[string]bool
}

var fqName = regexp.MustCompile(`fqName: "([^"]+)"`)

func (r *recorder) Register(c prometheus.Collector) error {
	if err := r.reg.Register(c); err != nil {
		return err
	}
	ch := make(chan *prometheus.Desc, 16)
	go func() { c.Describe(ch); close(ch) }()
	for d := range ch {
		if m := fqName.FindStringSubmatch(d.String()); m != nil {
			r.names[m[1]] = true
		}
	}
	return nil
}

func (r *recorder) MustRegister(cs ...prometheus.Collector) {
	for _, c := range cs {
		if err := r.Register(c); err != nil {
			panic(err)
		}
	}
}

func (r *recorder) Unregister(c prometheus.Collector) bool { return r.reg.Unregister(c) }

// registered creates every component's metrics on one recorder, the way
// redactd serve does on its registry, and returns their names.
func registered(t *testing.T) []string {
	t.Helper()
	r := &recorder{reg: prometheus.NewRegistry(), names: map[string]bool{}}
	if _, err := jobs.NewMetrics(r); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.NewMetrics(r); err != nil {
		t.Fatal(err)
	}
	if _, err := server.New(Server(config.Default(), r), nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	allow, err := webhook.ParseAllowList("")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := webhook.New(nil, allow, webhook.Options{Registerer: r}, nil); err != nil { // built, never started
		t.Fatal(err)
	}
	natsstore.NewMetrics(r) // the cluster engine's, registered by its nodes
	var names []string
	for n := range r.names {
		names = append(names, n)
	}
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

// TestMetricsDocumented fails when a metric some component registers is
// missing from the operator documentation's table, or the table lists
// one that no component registers any more.
func TestMetricsDocumented(t *testing.T) {
	names := registered(t)
	if len(names) < 20 {
		t.Fatalf("found only %d metric names: %v", len(names), names)
	}
	doc := documentedNames(t)
	for _, n := range names {
		if !doc[n] {
			t.Errorf("metric %s is not in the table of %s", n, docPath)
		}
		delete(doc, n)
	}
	for n := range doc {
		t.Errorf("%s documents metric %s, which no component registers", docPath, n)
	}
}

// TestComponentsShareNoMetric: two components registering one name on
// the same registry would fail at start; each metric has one owner.
func TestComponentsShareNoMetric(t *testing.T) {
	reg := NewRegistry()
	if _, err := jobs.NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.NewMetrics(reg); err != nil {
		t.Fatal(err)
	}
	if _, err := server.New(Server(config.Default(), reg), nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	// A second engine on the same registry is refused, not doubled.
	if _, err := jobs.NewMetrics(reg); err == nil {
		t.Fatal("registering the engine's metrics twice succeeded")
	}
}

// TestSettingsSelect: every component's settings name real settings, and
// get the Config's values.
func TestSettingsSelect(t *testing.T) {
	cfg := config.Default()
	cfg.Data = "/srv/redactd"
	cfg.MaxFilesPerJob = 7
	e := Engine(cfg, nil)
	if e.Data != "/srv/redactd" || e.MaxFilesPerJob != 7 || e.StudioTTL != cfg.StudioTTL {
		t.Fatalf("engine settings %+v", e)
	}
	cfg.OCR = "off"
	cfg.BatchSize = 9
	if p := Pipeline(cfg); p.OCR != "off" || p.BatchSize != 9 || p.DPI != cfg.DPI || p.NERModel != cfg.NERModel {
		t.Fatalf("pipeline settings %+v", p)
	}
}

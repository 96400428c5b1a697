package jobs

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/record"
	"github.com/redactd/redactd/engine/store/storelog"
)

// BenchmarkRecordPath measures what the record store costs a document:
// one-page documents through the test processor (no pipeline), one job
// each, one at a time (latency: p50 of submit → redacted, reported as
// p50-ms) and 50 at once (burst). The stores: the job log of releases
// before DATA/store, storelog over pebble syncing each step (as before
// DeferSync), and the node's store (the default). Compare them with
// `go test -run '^$' -bench 'RecordPath/<store>/'` runs alternated.
func BenchmarkRecordPath(b *testing.B) {
	for _, st := range []struct {
		name string
		set  func(*Settings)
	}{
		{"joblog", onJobLog},
		{"storelog-eachsync", func(cfg *Settings) {
			dir := filepath.Join(cfg.Data, "store")
			cfg.Records = func() (record.Store, error) {
				ps, err := pebblestore.Open(dir, pebblestore.Options{})
				if err != nil {
					return nil, err
				}
				return storelog.Open(context.Background(), ps.Bundle(nil), storelog.Options{Close: ps.Close})
			}
		}},
		{"node", func(*Settings) {}},
	} {
		b.Run(st.name+"/latency", func(b *testing.B) { benchRecordPath(b, st.set, 1) })
		b.Run(st.name+"/burst", func(b *testing.B) { benchRecordPath(b, st.set, 50) })
	}
}

func benchRecordPath(b *testing.B, set func(*Settings), burst int) {
	var cfg Settings
	cfg.Data = b.TempDir()
	cfg.MaxConcurrentJobs = 4
	cfg.JanitorInterval = time.Hour
	cfg.MaxUploadBytes = 1 << 20
	cfg.MaxFilesPerJob = 5
	cfg.MaxPagesPerDoc = 100
	cfg.FreePages = 5
	cfg.StandardPages = 1 << 40
	cfg.UploadURLTTL = 15 * time.Minute
	cfg.OutputTTL = 24 * time.Hour
	cfg.StudioTTL = 720 * time.Hour
	set(&cfg)
	e, err := open(cfg, newTestProc(), nil, hooks{verify: verifyTestPDF})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	key, _, err := e.CreateKey(ctx, "bench@example.com", PlanStandard, 1<<40)
	if err != nil {
		b.Fatal(err)
	}
	a, err := e.Authenticate(ctx, key)
	if err != nil {
		b.Fatal(err)
	}
	f := File{Name: "a.pdf", Data: testPDF(1)}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		ids := make([]string, burst)
		for i := range ids {
			j, err := e.CreateJob(ctx, a, CreateJobRequest{Files: []File{f}})
			if err != nil {
				b.Fatal(err)
			}
			ids[i] = j.ID
		}
		for _, id := range ids {
			for {
				j, err := e.GetJob(ctx, a, id)
				if err != nil {
					b.Fatal(err)
				}
				if j.Documents[0].Status.Terminal() {
					if j.Documents[0].Status != StatusRedacted {
						b.Fatalf("document %s", j.Documents[0].Status)
					}
					break
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}

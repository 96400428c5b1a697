package natsstore_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	natsstore "github.com/redactd/redactd/engine/store/nats"
	"github.com/redactd/redactd/internal/testkit/natskit"
)

// The benchmarks measure what the cluster engine adds per document, on
// a real 3-server cluster in this process: R3 file streams with
// sync_interval: always, over loopback TCP. On a 2-core machine the three
// servers, the clients and the fake workers share the cores, so these
// are lower bounds for servers on their own machines (and upper bounds
// on what fsync costs: the test store is on the host's disk). See
// bench/CLUSTER.md.
//
//	go test -run '^$' -bench . -benchtime 200x ./engine/store/nats/

// benchCluster starts the cluster once per benchmark function.
func benchCluster(b *testing.B) (*natskit.Cluster, jetstream.JetStream) {
	c := natskit.Start(b, 3)
	js, err := jetstream.New(c.Connect())
	if err != nil {
		b.Fatal(err)
	}
	return c, js
}

var benchPrefix int

func benchOpts() natsstore.Options {
	benchPrefix++
	return natsstore.Options{Prefix: "b" + strconv.Itoa(benchPrefix), Replicas: 3, LeaseTime: 30 * time.Second}
}

// BenchmarkCoordination is one document's coordination, step by step, on
// one connection: publish to the work queue, lease (pull + fence CAS),
// CAS the document (the attempt), charge the ledger, CAS the document to
// redacted, ack (fence CAS + confirmed ack + fence purge). Each step's
// mean is reported in ms. R3-file is production; R1-memory, on a single
// server, shows what the protocol costs without replication and fsync.
func BenchmarkCoordination(b *testing.B) {
	b.Run("R3-file", func(b *testing.B) {
		_, js := benchCluster(b)
		coordination(b, js, benchOpts())
	})
	b.Run("R1-memory", func(b *testing.B) {
		c := natskit.Start(b, 1)
		js, err := jetstream.New(c.Connect())
		if err != nil {
			b.Fatal(err)
		}
		o := benchOpts()
		o.Replicas, o.Memory = 1, true
		coordination(b, js, o)
	})
}

func coordination(b *testing.B, js jetstream.JetStream, o natsstore.Options) {
	ctx := context.Background()
	st, err := natsstore.Open(ctx, js.Conn(), o)
	if err != nil {
		b.Fatal(err)
	}
	var tPub, tLease, tCAS, tCharge, tAck time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		id := "d" + strconv.Itoa(i)
		rev, err := st.Docs.Create(ctx, "doc."+id, []byte(`{"status":"uploaded"}`))
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if err := st.Queue.Enqueue(ctx, "cpu", id, nil); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		l, err := st.Queue.Lease(ctx, "cpu")
		if err != nil {
			b.Fatal(err)
		}
		t2 := time.Now()
		rev, err = st.Docs.Update(ctx, "doc."+l.ID(), []byte(`{"status":"analyzing","attempt":1}`), rev)
		if err != nil {
			b.Fatal(err)
		}
		t3 := time.Now()
		if _, err := st.Ledger.Charge(ctx, "acct1", l.ID(), 3, 0); err != nil {
			b.Fatal(err)
		}
		t4 := time.Now()
		if _, err := st.Docs.Update(ctx, "doc."+l.ID(), []byte(`{"status":"redacted"}`), rev); err != nil {
			b.Fatal(err)
		}
		t5 := time.Now()
		if err := l.Ack(ctx); err != nil {
			b.Fatal(err)
		}
		t6 := time.Now()
		tPub += t1.Sub(t0)
		tLease += t2.Sub(t1)
		tCAS += t3.Sub(t2) + t5.Sub(t4)
		tCharge += t4.Sub(t3)
		tAck += t6.Sub(t5)
	}
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d) / n / 1e6 }
	b.ReportMetric(ms(tPub), "publish-ms")
	b.ReportMetric(ms(tLease), "lease-ms")
	b.ReportMetric(ms(tCAS)/2, "cas-ms")
	b.ReportMetric(ms(tCharge), "charge-ms")
	b.ReportMetric(ms(tAck), "ack-ms")
	b.ReportMetric(ms(tPub+tLease+tCAS+tCharge+tAck), "total-ms")
}

// BenchmarkQueueCeiling drains b.N queued documents with 1 to 6 workers,
// each a separate connection and Queue as a node would have, doing what a
// node does per document (lease, CAS, charge, CAS, ack) around a fake
// processing step that only sleeps. With work of W ms, n workers could do
// at most n*1000/W documents/s; what they reach shows the engine's
// ceiling. work=0 measures the coordination alone.
func BenchmarkQueueCeiling(b *testing.B) {
	c, _ := benchCluster(b)
	for _, work := range []time.Duration{0, 50 * time.Millisecond} {
		for workers := 1; workers <= 6; workers++ {
			b.Run(fmt.Sprintf("work=%v/workers=%d", work, workers), func(b *testing.B) {
				ceiling(b, c, work, workers)
			})
		}
	}
}

func ceiling(b *testing.B, c *natskit.Cluster, work time.Duration, workers int) {
	ctx := context.Background()
	o := benchOpts()
	nodes := make([]*natsstore.Store, workers)
	for i := range nodes {
		st, err := natsstore.Open(ctx, c.Connect(), o)
		if err != nil {
			b.Fatal(err)
		}
		nodes[i] = st
	}
	revs := make([]uint64, b.N)
	for i := range b.N {
		id := "d" + strconv.Itoa(i)
		rev, err := nodes[0].Docs.Create(ctx, "doc."+id, []byte(`{"status":"uploaded"}`))
		if err != nil {
			b.Fatal(err)
		}
		revs[i] = rev
		if err := nodes[0].Queue.Enqueue(ctx, "cpu", id, []byte(strconv.Itoa(i))); err != nil {
			b.Fatal(err)
		}
	}
	var (
		mu   sync.Mutex
		left = b.N
		lat  []time.Duration // lease → ack, minus the work
	)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for _, st := range nodes {
		wg.Go(func() {
			for {
				mu.Lock()
				if left == 0 {
					mu.Unlock()
					return
				}
				left--
				mu.Unlock()
				t0 := time.Now()
				l, err := st.Queue.Lease(ctx, "cpu")
				if err != nil {
					b.Error(err)
					return
				}
				i, _ := strconv.Atoi(string(l.Payload()))
				rev, err := st.Docs.Update(ctx, "doc."+l.ID(), []byte(`{"status":"analyzing"}`), revs[i])
				if err != nil {
					b.Error(err)
					return
				}
				time.Sleep(work)
				if _, err := st.Ledger.Charge(ctx, "acct1", l.ID(), 1, 0); err != nil {
					b.Error(err)
					return
				}
				if _, err := st.Docs.Update(ctx, "doc."+l.ID(), []byte(`{"status":"redacted"}`), rev); err != nil {
					b.Error(err)
					return
				}
				if err := l.Ack(ctx); err != nil {
					b.Error(err)
					return
				}
				d := time.Since(t0) - work
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "docs/s")
	if work > 0 {
		b.ReportMetric(float64(b.N)/elapsed.Seconds()/(float64(workers)/work.Seconds()), "of-ideal")
	}
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[len(lat)/2])/1e6, "coord-p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100])/1e6, "coord-p99-ms")
	}
}

// BenchmarkBlobs stores and reads back a document's files through the
// Object Store backend on the R3 file cluster: what a node adds per
// document once originals and outputs are blobs (the upload's Put, the
// worker's Open of the original, the output's Put, the download's Open).
// Sizes: a small original (256 KiB) and a large output (8 MiB).
//
//	go test -run '^$' -bench Blobs -benchtime 30x ./engine/store/nats/
func BenchmarkBlobs(b *testing.B) {
	_, js := benchCluster(b)
	ctx := context.Background()
	bl, err := natsstore.OpenBlobs(ctx, js, benchOpts())
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{256 << 10, 8 << 20} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			var tPut, tGet time.Duration
			for i := 0; b.Loop(); i++ {
				key := fmt.Sprintf("job/%d.pdf", i)
				t0 := time.Now()
				if _, err := bl.Put(ctx, key, bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				r, err := bl.Open(ctx, key)
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, r)
				r.Close()
				if err != nil || n != int64(size) {
					b.Fatalf("read %d of %d bytes: %v", n, size, err)
				}
				tGet += time.Since(t1)
				tPut += t1.Sub(t0)
			}
			n := float64(b.N)
			b.ReportMetric(float64(tPut)/n/1e6, "put-ms")
			b.ReportMetric(float64(tGet)/n/1e6, "get-ms")
			b.ReportMetric(float64(size)*n/tPut.Seconds()/1e6, "put-MB/s")
			b.ReportMetric(float64(size)*n/tGet.Seconds()/1e6, "get-MB/s")
		})
	}
}

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/redactd/redactd/bench/internal/client"
	"github.com/redactd/redactd/bench/internal/corpus"
	"github.com/redactd/redactd/bench/internal/daemon"
	"github.com/redactd/redactd/bench/internal/report"
	"github.com/redactd/redactd/bench/internal/runner"
	"github.com/redactd/redactd/internal/testkit/testpdf"
)

// Large uploads: what the server's memory does while many clients send
// files of the largest sizes at once through multipart POST /v1/jobs.
// The files are one-page PDFs carrying a large unreferenced stream, so the
// bytes cross the wire and land on disk while the pipeline has almost
// nothing to do: the peak is the upload path's.

// largePDF is a valid one-page PDF of about size bytes.
func largePDF(size int) []byte {
	const content = "BT /F1 12 Tf 72 720 Td (Large upload) Tj ET"
	objs := [][]byte{
		[]byte("<< /Type /Catalog /Pages 2 0 R >>"),
		[]byte("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
		[]byte("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"),
		[]byte(fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content)),
		[]byte("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
		append(append([]byte(fmt.Sprintf("<< /Length %d >>\nstream\n", size)), make([]byte, size)...), "\nendstream"...),
	}
	b, _ := testpdf.Assemble(objs, "/Root 1 0 R")
	return b
}

// measureUploads sends n multipart jobs of a size-byte PDF at once and
// reports the server's peak RSS over the idle server's.
func measureUploads(ctx context.Context, cfg *config, c *client.Client, srv *server, n, size int) (*report.Uploads, error) {
	data := largePDF(size)
	docs := make([]*corpus.Doc, n)
	for i := range docs {
		docs[i] = &corpus.Doc{Name: fmt.Sprintf("large-%02d.pdf", i), ContentType: "application/pdf", Data: data, Pages: 1}
	}
	base, _ := serverRSS(ctx, srv, c)
	stop := watchMemory(ctx, srv, c)
	opts := busyPoll
	opts.Concurrency, opts.Upload = n, runner.Multipart
	t0 := time.Now()
	res := runner.Run(ctx, c, docs, opts)
	took := time.Since(t0)
	peak, how := stop()
	if f := res.Failed(); f > 0 {
		return nil, fmt.Errorf("%d of %d large uploads failed: %s", f, n, res.Jobs[0].Err)
	}
	return &report.Uploads{Jobs: n, Bytes: int64(len(data)), Took: took, BaseRSS: base, PeakRSS: peak, RSSHow: how}, nil
}

// serverRSS is the server's resident memory now: from /proc when its
// process is known, else from its /metrics.
func serverRSS(ctx context.Context, srv *server, c *client.Client) (int64, error) {
	if srv.pid > 0 {
		return daemon.RSS(srv.pid)
	}
	text, err := c.Metrics(ctx)
	if err != nil {
		return 0, err
	}
	return int64(client.ParseMetrics(text)["process_resident_memory_bytes"]), nil
}

package pipeline

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/redactd/redactd/engine/pipeline/malloc"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
)

// Metrics are the pipeline's and its models' metrics, created on the
// registerer the daemon injects (Open, NewMetrics) and handed to New in
// Deps. The model batchers report through a hook (batch) and import no
// metrics of their own.
type Metrics struct {
	stage          *prometheus.HistogramVec // observe
	pages          prometheus.Counter       // pdfWriter.writePage
	outputBytes    prometheus.Histogram     // pdfWriter.writePage
	pixelsInFlight prometheus.Gauge         // reserve / release
	detections     *prometheus.CounterVec   // encodeBurned
	ocrRegions     *prometheus.CounterVec   // readPixels
	ocrKnownLines  prometheus.Counter       // knownLines
	ocrColumns     prometheus.Counter       // models/ocr (ObserveColumns)
	fontChecks     *prometheus.CounterVec   // checkSample
	fontColumns    prometheus.Counter       // checkSample
	releaseSigns   *prometheus.CounterVec   // checkRelease
	releaseReads   *prometheus.CounterVec   // releaseCheck
	nerWindows     *prometheus.CounterVec   // models/ner (ObserveWindows)
	visualFound    *prometheus.CounterVec   // visualPage
	batchSize      *prometheus.HistogramVec // batch
	batchDuration  *prometheus.HistogramVec // batch
	cHeap          *cHeapCollector          // read at each scrape
	mupdfHeld      prometheus.GaugeFunc     // read at each scrape
}

// NewMetrics creates the pipeline's metrics on reg (nil: unregistered).
func NewMetrics(reg prometheus.Registerer) (*Metrics, error) {
	m := &Metrics{
		stage: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "redactd_stage_duration_seconds", Help: "Time per page in each pipeline stage (open, render, words, ocr, detect, burn, release, visual, encode).",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 18),
		}, []string{"stage"}),
		pages: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_pages_total", Help: "Pages redacted.",
		}),
		outputBytes: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "redactd_output_bytes_per_page", Help: "Encoded size of each output page.",
			Buckets: prometheus.ExponentialBuckets(1024, 2, 14),
		}),
		pixelsInFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "redactd_pixels_in_flight", Help: "Raster pixels held by pages in flight (bounded by max-pixels-in-flight).",
		}),
		detections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_detections_total", Help: "Masked spans by category and recognizer.",
		}, []string{"category", "recognizer"}),
		ocrRegions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_ocr_regions_total", Help: "Areas read by OCR, by reason: page (no usable text layer, mostly picture, or ocr=always), font (a font failed its check), ink (ink no text-layer word explains, read), ink_reused (an ink region identical to one an earlier page of the document read: its words are reused).",
		}, []string{"reason"}),
		ocrKnownLines: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_ocr_known_lines_total", Help: "Text lines found in ink regions that hold only ink trusted text-layer words explain: not read again.",
		}),
		ocrColumns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_ocr_recognizer_columns_total", Help: "Input columns (at height 48, padding included) the OCR recogniser ran over, font checks included: the recogniser's work.",
		}),
		fontChecks: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_font_checks_total", Help: "Text-layer fonts checked against their pixels, by result (trusted, untrusted).",
		}, []string{"result"}),
		fontColumns: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "redactd_font_check_columns_total", Help: "Recogniser input columns (at height 48) spent checking fonts.",
		}),
		releaseSigns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_release_signs_total", Help: "Pages whose words show a sign that they were broken apart, by sign (letter_gaps, comb, order, format, edge); a page may count under several: each has its burned page read by OCR before release.",
		}, []string{"sign"}),
		releaseReads: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_release_reads_total", Help: "Readings of burned pages by OCR in the release check, by result: clean (no PII left unmasked at a sign; what a validated recognizer found elsewhere was masked), masked (PII at a sign was masked and the page burned, and read again unless it was the last reading), failed (PII at a sign still readable at the last reading: the document failed); no_ocr counts pages with a sign that could not be read (OCR off or unavailable: the document failed).",
		}, []string{"result"}),
		nerWindows: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_ner_windows_total", Help: "Windows of up to 64 tokens the NER model read, by reading: as_written, and reread (a window mostly in capitals is read again truecased and in lower case): the NER step's work.",
		}, []string{"reading"}),
		visualFound: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "redactd_visual_found_total", Help: "What the visual stage found in pages' pictures, by kind: face (masked), code_pii (a code whose content holds requested PII: masked), code_undecoded (a code found but not decoded: masked), code_clean (a code holding nothing requested: left), signature (handwriting, masked: hand.go).",
		}, []string{"kind"}),
		batchSize: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "redactd_model_batch_size", Help: "Requests per model batch.",
			Buckets: []float64{1, 2, 4, 8, 16, 32, 64, 128, 256},
		}, []string{"model"}),
		batchDuration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "redactd_model_batch_duration_seconds", Help: "Model run time per batch, from its start to its last result (the chunks of a recogniser or NER batch may wait there for a free thread slot).",
			Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16),
		}, []string{"model"}),
	}
	m.cHeap = newCHeapCollector()
	m.mupdfHeld = prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "redactd_mupdf_bytes", Help: "Bytes MuPDF holds for the documents open (their caches, decoded images and pages in flight): part of redactd_c_heap_bytes{state=\"in_use\"}.",
	}, func() float64 { return float64(mupdf.HeldBytes()) })
	if reg != nil {
		for _, c := range []prometheus.Collector{m.stage, m.pages, m.outputBytes, m.pixelsInFlight, m.detections,
			m.ocrRegions, m.ocrKnownLines, m.ocrColumns, m.fontChecks, m.fontColumns, m.releaseSigns, m.releaseReads, m.nerWindows, m.visualFound, m.batchSize, m.batchDuration, m.mupdfHeld, m.cHeap} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}

// cHeapCollector reports the C allocator that MuPDF and ONNX Runtime
// share (package malloc), which the Go collector's go_memstats_* do not
// see: a process's RSS is about Go's share plus these. Both states come
// from one read a scrape (it walks every arena under its lock).
type cHeapCollector struct{ desc *prometheus.Desc }

func newCHeapCollector() *cHeapCollector {
	return &cHeapCollector{prometheus.NewDesc("redactd_c_heap_bytes",
		"Bytes of the C allocator (glibc malloc) that MuPDF and ONNX Runtime share, by state: in_use (handed out: documents, model arenas and weights), free (held by its arenas for reuse).",
		[]string{"state"}, nil)}
}

func (c *cHeapCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

// Collect reports nothing where the C library does not tell.
func (c *cHeapCollector) Collect(ch chan<- prometheus.Metric) {
	st, err := malloc.ReadStats()
	if err != nil {
		return
	}
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(st.InUse), "in_use")
	ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(st.Free), "free")
}

// observe records a stage's duration for one page.
func (m *Metrics) observe(stage string, start time.Time) {
	m.stage.WithLabelValues(stage).Observe(time.Since(start).Seconds())
}

// nerRead is the NER detector's hook (ner.DetectorOptions.ObserveWindows).
func (m *Metrics) nerRead(windows, rereads int) {
	m.nerWindows.WithLabelValues("as_written").Add(float64(windows))
	m.nerWindows.WithLabelValues("reread").Add(float64(rereads))
}

// batch is the models' batch hook (ner.Options.Observe, ocr.Options.Observe).
func (m *Metrics) batch(model string, size int, took time.Duration) {
	m.batchDuration.WithLabelValues(model).Observe(took.Seconds())
	m.batchSize.WithLabelValues(model).Observe(float64(size))
}

package detect

import (
	"context"
	"strings"
	"testing"
	"time"
)

// BenchmarkRun measures the recognizers on a typical page (samplePage,
// about 400 words) through Run, and reports the cost relative to building
// the page's View (the reference, measured in the same run): the whole
// recognizer set should stay within a few dozen views, well under 1 ms
// per page on one core.
func BenchmarkRun(b *testing.B) {
	ds, err := Recognizers()
	if err != nil {
		b.Fatal(err)
	}
	p, _ := PageFromText(samplePage)
	b.ReportMetric(float64(len(p.Words)), "words")
	// Reference: building the view, timed here rather than with
	// testing.Benchmark (which cannot run inside a benchmark).
	const refN = 2000
	t0 := time.Now()
	for range refN {
		_ = PageView(p)
	}
	refNs := float64(time.Since(t0).Nanoseconds()) / refN
	ctx := context.Background()
	opts := Options{Included: []string{"Northwind", "settlement"}, Excluded: []string{"Portland"}}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Run(ctx, p, ds, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if b.N > 0 && refNs > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/refNs, "x-view")
	}
}

// BenchmarkRecognizer measures each recognizer alone on samplePage.
func BenchmarkRecognizer(b *testing.B) {
	ds, err := Recognizers()
	if err != nil {
		b.Fatal(err)
	}
	p, _ := PageFromText(samplePage)
	v := PageView(p)
	for _, d := range ds {
		b.Run(d.Name(), func(b *testing.B) {
			for b.Loop() {
				d.(ViewDetector).DetectView(v)
			}
		})
	}
}

// BenchmarkRunProse measures a page of plain prose without any PII: the
// recognizers' pre-filters should make it cheap.
func BenchmarkRunProse(b *testing.B) {
	ds, err := Recognizers()
	if err != nil {
		b.Fatal(err)
	}
	line := "The committee reviewed the annual report and agreed that the results were in line with expectations for the year."
	p, _ := PageFromText(strings.Repeat(line+"\n", 20))
	b.ReportMetric(float64(len(p.Words)), "words")
	for b.Loop() {
		if _, err := Run(context.Background(), p, ds, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBlockLang measures what telling the language of every block
// costs on a typical page (samplePage): building the view alone, then
// building it and reading its blocks' languages (View.Blocks), which a
// detection pays once per page when a recognizer or rule reads them.
func BenchmarkBlockLang(b *testing.B) {
	p, _ := PageFromText(samplePage)
	b.Run("view", func(b *testing.B) {
		for range b.N {
			_ = PageView(p)
		}
	})
	b.Run("view+lang", func(b *testing.B) {
		for range b.N {
			_ = PageView(p).Blocks()
		}
	})
}

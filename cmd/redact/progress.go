package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// progressView shows how far each document of a job has got, from the
// status, page_count and pages_done the server reports. On a terminal it
// draws one bar per file and redraws them in place; elsewhere (a pipe, a
// log file) it prints a plain line whenever a document's state or page
// figure changes.
type progressView struct {
	w     io.Writer
	bars  bool
	names []string
	docs  map[string]*docProgress
	drawn int // bar lines drawn so far (to move the cursor back over)
}

// docProgress remembers what was shown for one document and where the
// rate measurement started.
type docProgress struct {
	shown   string
	t0      time.Time // first sight of the document analyzing
	done0   int       // pages_done then
	started bool
}

// barWidth is the number of cells of a progress bar.
const barWidth = 24

func newProgressView(w io.Writer, bars bool, files []localFile) *progressView {
	v := &progressView{w: w, bars: bars, docs: map[string]*docProgress{}}
	for _, f := range files {
		v.names = append(v.names, filepath.Base(f.Path))
	}
	return v
}

// update shows the documents of j as of now.
func (v *progressView) update(j *job, now time.Time) {
	lines := make([]string, 0, len(j.Documents))
	for i, d := range j.Documents {
		if i >= len(v.names) {
			break
		}
		p := v.docs[d.ID]
		if p == nil {
			p = &docProgress{}
			v.docs[d.ID] = p
		}
		if !p.started && d.Status != "uploaded" && !terminal(d.Status) {
			p.started, p.t0, p.done0 = true, now, d.PagesDone
		}
		lines = append(lines, v.line(v.names[i], d, p, now))
	}
	if v.bars {
		v.redraw(lines)
		return
	}
	for i, l := range lines {
		d := j.Documents[i]
		p := v.docs[d.ID]
		// Plain mode: one line per change of state or page figure.
		key := d.Status + fmt.Sprint(d.PagesDone, "/", d.PageCount)
		if p.shown != key {
			p.shown = key
			fmt.Fprintf(v.w, "redact: %s\n", l)
		}
	}
}

// redraw moves the cursor up over the previous bars and writes the new
// ones, each line cleared first.
func (v *progressView) redraw(lines []string) {
	var b strings.Builder
	if v.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", v.drawn)
	}
	for _, l := range lines {
		b.WriteString("\r\x1b[K")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	v.drawn = len(lines)
	io.WriteString(v.w, b.String())
}

// line is one document's progress: name, bar (on a terminal), pages,
// rate and ETA while it runs, its state.
func (v *progressView) line(name string, d document, p *docProgress, now time.Time) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteString(": ")
	if v.bars {
		b.WriteString(bar(d.PagesDone, d.PageCount))
		b.WriteByte(' ')
	}
	switch {
	case d.PageCount > 0:
		fmt.Fprintf(&b, "%d/%d pages", d.PagesDone, d.PageCount)
	default:
		b.WriteString("waiting")
	}
	if !terminal(d.Status) && p.started && d.PageCount > 0 {
		if rate, ok := pageRate(d.PagesDone-p.done0, now.Sub(p.t0)); ok {
			fmt.Fprintf(&b, ", %.1f pages/s, ETA %s", rate, eta(d.PageCount-d.PagesDone, rate))
		}
	}
	b.WriteString(", ")
	b.WriteString(d.Status)
	return b.String()
}

// bar draws done of total as "[#####.....]"; an unknown total is empty.
func bar(done, total int) string {
	n := 0
	if total > 0 {
		n = min(barWidth, done*barWidth/total)
	}
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", barWidth-n) + "]"
}

// pageRate is pages per second over elapsed; no rate before a page is
// done or before a tenth of a second has passed.
func pageRate(pages int, elapsed time.Duration) (float64, bool) {
	if pages <= 0 || elapsed < 100*time.Millisecond {
		return 0, false
	}
	return float64(pages) / elapsed.Seconds(), true
}

// eta formats the time the remaining pages take at rate, as m:ss or h:mm:ss.
func eta(remaining int, rate float64) string {
	s := int(float64(remaining)/rate + 0.5)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

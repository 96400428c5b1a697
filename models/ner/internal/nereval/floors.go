package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"github.com/redactd/redactd/engine/detect/eval"
)

// floorMargin is how far under the measured score a floor sits: detection
// is deterministic, so the margin only absorbs float differences between
// CPUs in ONNX Runtime and leaves room for a trade that is worth a
// hundredth somewhere.
const floorMargin = 0.01

// minSupport is the fewest gold words a figure needs to get a floor: a
// recall over a handful of words (LitBank's organisations) is noise.
const minSupport = 50

// floorsFile is where the floors live, next to the gate that reads them.
const floorsFile = "floors.json"

// metrics flattens the test tables into "corpus/metric" -> (score,
// support): Person, Organization and masking recall and precision for
// the NER corpora, masking and per-category recall for the generated sets.
func (t tables) metrics() map[string][2]float64 {
	out := map[string][2]float64{}
	// A figure of 0 (nothing found: NationalID, which no recognizer
	// finds yet) has nothing to hold; once it rises it needs a floor.
	add := func(name string, c eval.Counts) {
		if n := c.TP + c.FN; n >= minSupport && c.TP > 0 {
			out[name+"_r"] = [2]float64{c.Recall(), float64(n)}
			out[name+"_p"] = [2]float64{c.Precision(), float64(c.TP + c.FP)}
		}
	}
	for _, r := range t.rows {
		add(r.Name+"/person", r.Report.Person)
		add(r.Name+"/organization", r.Report.Organization)
		add(r.Name+"/masking", r.Report.Masking)
	}
	for _, r := range t.presidio {
		add(r.name+"/masking", r.rep.Masking)
		for _, c := range presidioCats {
			k := r.rep.PerCategory[c]
			if n := k.TP + k.FN; n >= minSupport && k.TP > 0 {
				out[r.name+"/"+strings.ToLower(string(c))+"_r"] = [2]float64{k.Recall(), float64(n)}
			}
		}
	}
	return out
}

// floorsOf returns each metric's floor: its score less floorMargin (less
// half the score where that is smaller, so that a score under two points,
// as the English model's Organization precision on old German
// newspapers, keeps a floor above 0), rounded down to three decimals.
func floorsOf(t tables) map[string]float64 {
	out := map[string]float64{}
	for k, v := range t.metrics() {
		out[k] = math.Max(0, math.Floor((v[0]-math.Min(floorMargin, v[0]/2))*1000)/1000)
	}
	return out
}

// writeFigures writes t's figures (the scores the gate's floors are
// taken from, unrounded) as JSON.
func writeFigures(path string, t tables) error {
	out := map[string]float64{}
	for k, v := range t.metrics() {
		out[k] = v[0]
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func writeFloors(path string, t tables) error {
	b, err := json.MarshalIndent(floorsOf(t), "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// addFloors adds to the floors in path (none if it does not exist) a
// floor for every figure of t that has none, and leaves the others as
// they are: a new corpus joins the gate at today's score without moving
// the floors already set. It returns how many it added.
func addFloors(path string, t tables) (int, error) {
	floors, err := readFloors(path)
	if errors.Is(err, os.ErrNotExist) {
		floors, err = map[string]float64{}, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for k, v := range floorsOf(t) {
		if _, ok := floors[k]; !ok {
			floors[k] = v
			n++
		}
	}
	b, err := json.MarshalIndent(floors, "", " ")
	if err != nil {
		return 0, err
	}
	return n, os.WriteFile(path, append(b, '\n'), 0o644)
}

// raiseFloors sets each floor in path to the higher of itself and the
// floor today's score gives (floorsOf), and adds the missing ones: after a
// change that improved figures (a new model), the gate holds the gains,
// and no floor falls. It returns how many it raised and added.
func raiseFloors(path string, t tables) (raised, added int, err error) {
	floors, err := readFloors(path)
	if err != nil {
		return 0, 0, err
	}
	for k, v := range floorsOf(t) {
		old, ok := floors[k]
		switch {
		case !ok:
			floors[k] = v
			added++
		case v > old:
			floors[k] = v
			raised++
		}
	}
	b, err := json.MarshalIndent(floors, "", " ")
	if err != nil {
		return 0, 0, err
	}
	return raised, added, os.WriteFile(path, append(b, '\n'), 0o644)
}

func readFloors(path string) (map[string]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f map[string]float64
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// checkFloors lists every metric under its floor, every floor whose
// metric is gone and every metric without a floor.
func checkFloors(t tables, floors map[string]float64) []string {
	var bad []string
	got := t.metrics()
	for k, f := range floors {
		v, ok := got[k]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("%s: floor %.3f but no score (corpus or support gone)", k, f))
		case v[0] < f:
			bad = append(bad, fmt.Sprintf("%s: %.4f below its floor %.3f", k, v[0], f))
		}
	}
	for k, v := range got {
		if _, ok := floors[k]; !ok {
			bad = append(bad, fmt.Sprintf("%s: %.4f has no floor (run nereval -write-floors)", k, v[0]))
		}
	}
	sort.Strings(bad)
	return bad
}

// floorsMarkdown renders scores and floors side by side for the README:
// one row per corpus, one column per metric, "score (floor)" in each cell.
func floorsMarkdown(t tables, floors map[string]float64) string {
	got := t.metrics()
	var corpora, metrics []string
	seenC, seenM := map[string]bool{}, map[string]bool{}
	for _, r := range t.rows {
		corpora, seenC[r.Name] = append(corpora, r.Name), true
	}
	for _, r := range t.presidio {
		corpora, seenC[r.name] = append(corpora, r.name), true
	}
	for k := range got {
		if _, m, _ := strings.Cut(k, "/"); !seenM[m] {
			metrics, seenM[m] = append(metrics, m), true
		}
	}
	sort.Strings(metrics)
	var b strings.Builder
	b.WriteString("| corpus |")
	for _, m := range metrics {
		fmt.Fprintf(&b, " %s |", m)
	}
	b.WriteString("\n|---|")
	for range metrics {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, c := range corpora {
		fmt.Fprintf(&b, "| %s |", c)
		for _, m := range metrics {
			v, ok := got[c+"/"+m]
			if !ok {
				b.WriteString(" |")
				continue
			}
			f, ok := floors[c+"/"+m]
			fs := "none"
			if ok {
				fs = fmt.Sprintf("%.3f", f)
			}
			fmt.Fprintf(&b, " %.3f (%s) |", v[0], fs)
		}
		b.WriteString("\n")
	}
	return b.String()
}

package ner

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redactd/redactd/engine/page"
	"github.com/redactd/redactd/models/ort"
)

// TestMain runs every test on one ONNX Runtime environment with one
// intra-op thread, so BenchmarkTag measures sentences per core.
func TestMain(m *testing.M) {
	code := m.Run()
	closeShared()
	_ = ort.Destroy()
	os.Exit(code)
}

var (
	sharedOnce sync.Once
	shared     *Model
	sharedErr  error
)

// needORT skips when the ONNX Runtime library is not installed (`make
// setup`) and initialises it with one thread otherwise.
func needORT(t testing.TB) {
	t.Helper()
	if _, err := ort.FindLibrary(""); err != nil {
		t.Skipf("ONNX Runtime library not installed (run `make setup`): %v", err)
	}
	if err := ort.Init(ort.Options{Threads: 1}); err != nil {
		t.Fatalf("ort.Init: %v", err)
	}
}

// builtin returns the embedded model, loaded once for the package.
func builtin(t testing.TB) *Model {
	t.Helper()
	needORT(t)
	sharedOnce.Do(func() { shared, sharedErr = Load(Builtin, Options{}) })
	if sharedErr != nil {
		t.Fatalf("Load(builtin): %v", sharedErr)
	}
	return shared
}

func closeShared() {
	if shared != nil {
		_ = shared.Close()
	}
}

// parityFixture holds torch's logits for a few inputs (train.py writes it
// with the model); the ONNX model run from Go must reproduce them.
type parityFixture struct {
	Labels []string `json:"labels"`
	Cases  []struct {
		Text   string    `json:"text"`
		Tokens []string  `json:"tokens"`
		Words  []int64   `json:"words"`
		Chars  [][]int64 `json:"chars"`
		Shapes []int64   `json:"shapes"`
		// Gazetteer features; absent for a model without them.
		Gazetteer []int64     `json:"gazetteer"`
		Logits    [][]float64 `json:"logits"`
		// With a CRF: torch's Viterbi paths over Logits, plain and with
		// the default recall bias (EntityProb 0.2).
		Viterbi       []int `json:"viterbi"`
		ViterbiBiased []int `json:"viterbi_biased"`
	} `json:"cases"`
}

// TestBuiltinCharsFolded holds the shipped graph to the one train/fold.py
// writes: the character CNN as three table look-ups, which cost a fifth
// less than the exported convolution and give the same held-out tables
// (README, "Character CNN as tables"). TestParityWithTorch checks that
// the folded graph still reads as torch does.
func TestBuiltinCharsFolded(t *testing.T) {
	g, err := builtinFS.ReadFile("model/" + ownModelFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"charfold_Gather0", "charfold_Gather1", "charfold_Gather2"} {
		if !bytes.Contains(g, []byte(n)) {
			t.Errorf("model/%s has no node %s: exported without train/fold.py?", ownModelFile, n)
		}
	}
}

func TestParityWithTorch(t *testing.T) {
	m := builtin(t)
	var fx parityFixture
	readFixture(t, "parity_fixture.json", &fx)
	checkParity(t, m, fx)
}

// TestParityCRFGazetteer runs the same checks on testdata/crfgaz, a tiny
// untrained model with gazetteer features and a CRF (train/crfgaz_tiny.py),
// so those runtime paths stay checked against torch whatever the
// built-in model has.
func TestParityCRFGazetteer(t *testing.T) {
	needORT(t)
	// torch's biased paths use one bar for every type.
	m, err := Load(filepath.Join("testdata", "crfgaz"), Options{PersonProb: DefaultEntityProb})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.own.gazetteer == nil || m.manifest.CRF == nil {
		t.Fatal("testdata/crfgaz lost its gazetteer lists or its CRF")
	}
	var fx parityFixture
	readFixture(t, filepath.Join("crfgaz", "parity_fixture.json"), &fx)
	gazWords := 0
	for _, c := range fx.Cases {
		for _, g := range c.Gazetteer {
			if g != 0 {
				gazWords++
			}
		}
	}
	if gazWords == 0 {
		t.Fatal("no fixture token is in a gazetteer list: the feature goes unchecked")
	}
	checkParity(t, m, fx)
	checkViterbi(t, m, fx)
}

// checkParity compares the features m computes with the fixture's and
// the labels and scores of one batched TagAll over all its cases with
// torch's.
func checkParity(t *testing.T, m *Model, fx parityFixture) {
	t.Helper()
	if !slices.Equal(fx.Labels, m.Labels()) {
		t.Fatalf("labels %v, model has %v", fx.Labels, m.Labels())
	}
	var seqs [][]string
	for _, c := range fx.Cases {
		s := m.own.prepare(c.Tokens)
		if !slices.Equal(s.words, c.Words) || !slices.Equal(s.shapes, c.Shapes) {
			t.Errorf("%q: features differ from the Python side", c.Text)
		}
		if m.own.gazetteer != nil && !slices.Equal(s.gaz, c.Gazetteer) {
			t.Errorf("%q: gazetteer features %v, Python %v", c.Text, s.gaz, c.Gazetteer)
		}
		for i := range c.Chars {
			if !slices.Equal(s.chars[i], c.Chars[i]) {
				t.Errorf("%q: char ids of %q differ", c.Text, c.Tokens[i])
			}
		}
		seqs = append(seqs, c.Tokens)
	}
	// All cases in one call: they share a batch and its padding.
	got, err := m.TagAll(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	for k, c := range fx.Cases {
		if m.manifest.CRF != nil {
			// Viterbi over ONNX Runtime's logits finds torch's path.
			for i, j := range c.ViterbiBiased {
				if want := ParseLabel(fx.Labels[j]); got[k].Labels[i] != want {
					t.Errorf("%q token %d %q: label %v, torch's Viterbi says %v", c.Text, i, c.Tokens[i], got[k].Labels[i], want)
				}
			}
			continue
		}
		for i, row := range c.Logits {
			// The same decoding (recall bias included) over torch's
			// logits must give the label Go found over ONNX Runtime's.
			torch := make([]float32, len(row))
			for j, v := range row {
				torch[j] = float32(v)
			}
			want, p := m.decodeLogits(torch)
			if got[k].Labels[i] != want {
				// A near tie may flip between torch and ONNX Runtime.
				if !nearTie(m, torch, got[k].Labels[i]) {
					t.Errorf("%q token %d %q: label %v, torch says %v (p=%.3f)", c.Text, i, c.Tokens[i], got[k].Labels[i], want, p)
				}
				continue
			}
			if d := math.Abs(float64(got[k].Scores[i] - p)); d > 1e-3 {
				t.Errorf("%q token %d: score %.5f, torch %.5f", c.Text, i, got[k].Scores[i], p)
			}
		}
	}
}

// checkViterbi decodes torch's logits of the fixture with the Go
// Viterbi and compares the paths with torch's, with and without the
// recall bias.
func checkViterbi(t *testing.T, m *Model, fx parityFixture) {
	t.Helper()
	c := m.manifest.CRF
	L := len(m.labels)
	// torch's biased reference subtracts the EntityProb bias from O alone.
	oBias := make([]float32, L)
	for j, o := range m.isO {
		if o {
			oBias[j] = recallBias(DefaultEntityProb)
		}
	}
	biased := 0
	for _, k := range fx.Cases {
		n := len(k.Logits)
		emit := make([]float32, 0, n*L)
		for _, row := range k.Logits {
			for _, v := range row {
				emit = append(emit, float32(v))
			}
		}
		for _, tc := range []struct {
			bias []float32
			want []int
		}{{nil, k.Viterbi}, {oBias, k.ViterbiBiased}} {
			got := make([]int, n)
			c.viterbi(emit, n, L, tc.bias, got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%q bias %v: path %v, torch %v", k.Text, tc.bias, got, tc.want)
			}
		}
		if !slices.Equal(k.Viterbi, k.ViterbiBiased) {
			biased++
		}
	}
	if biased == 0 {
		t.Error("the recall bias changed no path: the biased decoding goes unchecked")
	}
}

// nearTie reports whether moving one logit of row by 1e-3 (far more
// than ONNX Runtime and torch differ by) makes decodeLogits choose label.
func nearTie(m *Model, row []float32, label Label) bool {
	for j := range row {
		for _, d := range []float32{-1e-3, 1e-3} {
			r := slices.Clone(row)
			r[j] += d
			if l, _ := m.decodeLogits(r); l == label {
				return true
			}
		}
	}
	return false
}

func softmaxMax(row []float64) (int, float64) {
	best := 0
	for j := range row {
		if row[j] > row[best] {
			best = j
		}
	}
	var sum float64
	for _, v := range row {
		sum += math.Exp(v - row[best])
	}
	return best, 1 / sum
}

// spansOf renders the entities Tag finds as "PER:John Smith" strings.
func spansOf(toks []string, labels []Label, scores []float32) []string {
	var out []string
	for _, s := range Decode(toks, labels, scores) {
		out = append(out, s.Entity.String()+":"+strings.Join(toks[s.First:s.Last+1], " "))
	}
	return out
}

func TestTagExample(t *testing.T) {
	m := builtin(t)
	toks := Tokenize("John Smith works at Acme Corp in Berlin")
	labels, scores, err := m.Tag(context.Background(), toks)
	if err != nil {
		t.Fatal(err)
	}
	if len(labels) != len(toks) || len(scores) != len(toks) {
		t.Fatalf("%d labels and %d scores for %d tokens", len(labels), len(scores), len(toks))
	}
	got := spansOf(toks, labels, scores)
	for _, want := range []string{"PER:John Smith", "ORG:Acme Corp"} {
		if !slices.Contains(got, want) {
			t.Errorf("spans %q lack %s", got, want)
		}
	}
	for i, s := range scores {
		if s <= 0 || s > 1 {
			t.Errorf("token %d: score %v outside (0,1]", i, s)
		}
	}
}

// TestBatchIndependence: a sequence gets the same labels and scores
// whatever it is batched with, and concurrent callers share batches
// without mixing their results.
// TestDecodeProbsMatchesTag: decoding a sequence's own probabilities
// again, as the detector does with its mean over windows, gives the
// labels and scores TagAll gave, token by token and through a CRF.
func TestDecodeProbsMatchesTag(t *testing.T) {
	needORT(t)
	crf, err := Load(filepath.Join("testdata", "crfgaz"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer crf.Close()
	seqs := [][]string{
		Tokenize("Please send the invoice to Maria Garcia, 12 Main Street, Springfield, IL 62704."),
		Tokenize("Siemens AG and Deutsche Bank announced the deal in Frankfurt on Monday."),
	}
	for name, m := range map[string]*Model{"builtin": builtin(t), "crfgaz": crf} {
		tagged, err := m.TagAll(context.Background(), seqs)
		if err != nil {
			t.Fatal(err)
		}
		for i, tg := range tagged {
			if len(tg.Probs) != len(tg.Labels)*len(m.Labels()) {
				t.Fatalf("%s: %d probabilities for %d tokens of %d classes", name, len(tg.Probs), len(tg.Labels), len(m.Labels()))
			}
			labels, scores := m.DecodeProbs(tg.Probs, len(tg.Labels))
			for k := range labels {
				if labels[k] != tg.Labels[k] || math.Abs(float64(scores[k]-tg.Scores[k])) > 1e-5 {
					t.Errorf("%s: sequence %d token %q: %v %.6f from probabilities, %v %.6f from TagAll",
						name, i, seqs[i][k], labels[k], scores[k], tg.Labels[k], tg.Scores[k])
				}
			}
		}
	}
}

// mixedTexts are sequences of very different lengths and kinds, for the
// tests that batch them together.
var mixedTexts = []string{
	"John Smith works at Acme Corp in Berlin",
	"Please send the invoice to Maria Garcia, 12 Main Street, Springfield, IL 62704.",
	"ok",
	"Name: JOHN O'BRIEN\nAddress: Hauptstraße 5\n10115 Berlin",
	"The weather was nice and nobody was there.",
	"Siemens AG and Deutsche Bank announced the deal in Frankfurt on Monday.",
}

func TestBatchIndependence(t *testing.T) {
	m := builtin(t)
	texts := mixedTexts
	ctx := context.Background()
	alone := make([]Tagged, len(texts))
	for i, tx := range texts {
		l, s, err := m.Tag(ctx, Tokenize(tx))
		if err != nil {
			t.Fatal(err)
		}
		alone[i] = Tagged{Labels: l, Scores: s}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range 10 {
				i := (g + r) % len(texts)
				l, s, err := m.Tag(ctx, Tokenize(texts[i]))
				if err != nil {
					errs <- err
					return
				}
				if !slices.Equal(l, alone[i].Labels) {
					errs <- fmt.Errorf("%q: labels %v batched, %v alone", texts[i], l, alone[i].Labels)
					return
				}
				for k := range s {
					if d := math.Abs(float64(s[k] - alone[i].Scores[k])); d > 1e-5 {
						errs <- fmt.Errorf("%q token %d: score %v batched, %v alone", texts[i], k, s[k], alone[i].Scores[k])
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestTagLongAndEmpty(t *testing.T) {
	m := builtin(t)
	ctx := context.Background()
	l, s, err := m.Tag(ctx, nil)
	if err != nil || len(l) != 0 || len(s) != 0 {
		t.Fatalf("empty input: %v %v %v", l, s, err)
	}
	var toks []string
	for range 100 {
		toks = append(toks, Tokenize("Anna Schmidt met Peter Miller in Hamburg .")...)
	}
	l, s, err = m.Tag(ctx, toks) // longer than MaxLen: cut and joined
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != len(toks) || len(s) != len(toks) {
		t.Fatalf("%d labels for %d tokens", len(l), len(toks))
	}
}

func TestTagCanceled(t *testing.T) {
	m := builtin(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := m.Tag(ctx, Tokenize("John Smith")); err == nil {
		t.Fatal("Tag with a canceled context succeeded")
	}
}

func TestLoadErrors(t *testing.T) {
	needORT(t)
	dir := t.TempDir()
	if _, err := Load(dir, Options{}); err == nil || !strings.Contains(err.Error(), "neither") {
		t.Fatalf("empty dir: err = %v", err)
	}
	// A model directory whose files are not what they claim.
	for _, f := range []string{ownModelFile, ownVocabFile, manifestFile} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Load(dir, Options{}); err == nil {
		t.Fatal("bogus model loaded")
	}
	if _, err := Load(filepath.Join(dir, "missing"), Options{}); err == nil {
		t.Fatal("missing dir loaded")
	}
}

// benchSentences are typical document lines.
var benchSentences = []string{
	"John Smith works at Acme Corp in Berlin.",
	"Please send the signed contract to Maria Garcia, 12 Main Street, Springfield, IL 62704.",
	"Invoice INV-20391 dated 12/03/2021, total due 1,234.50 EUR.",
	"Name: JOHN O'BRIEN",
	"The meeting has been moved to next Tuesday at the office in Frankfurt.",
	"Siemens AG, Werner-von-Siemens-Straße 1, 80333 München",
	"Thank you for your prompt reply.",
	"Dear Mr. Miller,",
}

// BenchmarkTag measures sentences per second on one core (ONNX Runtime
// with one intra-op thread): 64 sentences of typical document lines per
// iteration, tagged together as a page's lines are.
func BenchmarkTag(b *testing.B) {
	m := builtin(b)
	var seqs [][]string
	tokens := 0
	for i := range 64 {
		s := Tokenize(benchSentences[i%len(benchSentences)])
		seqs = append(seqs, s)
		tokens += len(s)
	}
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := m.TagAll(ctx, seqs); err != nil {
			b.Fatal(err)
		}
	}
	secs := b.Elapsed().Seconds()
	b.ReportMetric(float64(len(seqs)*b.N)/secs, "sentences/s")
	b.ReportMetric(float64(tokens*b.N)/secs, "tokens/s")
}

// BenchmarkTagOneByOne is the reference for BenchmarkTag: the same
// sentences, one model run each (no batching).
func BenchmarkTagOneByOne(b *testing.B) {
	m := builtin(b)
	var seqs []*seq
	for i := range 64 {
		seqs = append(seqs, m.own.prepare(Tokenize(benchSentences[i%len(benchSentences)])))
	}
	b.ResetTimer()
	for b.Loop() {
		for _, s := range seqs {
			if _, err := m.own.run(m, []*seq{s}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(seqs)*b.N)/b.Elapsed().Seconds(), "sentences/s")
}

// TestRunChunks: a batch cut into chunks run side by side (Model.par)
// gives every sequence the result it gets in one run, in its place.
func TestRunChunks(t *testing.T) {
	m := builtin(t)
	texts := mixedTexts
	var reqs []*seq
	for i := range 23 {
		reqs = append(reqs, m.own.prepare(Tokenize(texts[i%len(texts)])))
	}
	defer func(par int) { m.par = par }(m.par)
	m.par = 1
	one, err := m.own.run(m, reqs)
	if err != nil {
		t.Fatal(err)
	}
	for _, par := range []int{2, 3} {
		m.par = par
		cut, err := m.own.run(m, reqs)
		if err != nil {
			t.Fatal(err)
		}
		if len(cut) != len(one) {
			t.Fatalf("par %d: %d results for %d sequences", par, len(cut), len(one))
		}
		for i := range one {
			if !slices.Equal(cut[i].labels, one[i].labels) || len(cut[i].probs) != len(one[i].probs) {
				t.Fatalf("par %d, sequence %d: labels %v, want %v", par, i, cut[i].labels, one[i].labels)
			}
			for k := range one[i].probs {
				if d := math.Abs(float64(cut[i].probs[k] - one[i].probs[k])); d > 1e-5 {
					t.Fatalf("par %d, sequence %d: probability %d is %v, want %v", par, i, k, cut[i].probs[k], one[i].probs[k])
				}
			}
		}
	}
}

// TestBuiltinMultilingual loads the embedded multilingual model and
// reads a name in each of its six languages: the second built-in model
// is a model of its own (its manifest's name), not the English one.
func TestBuiltinMultilingual(t *testing.T) {
	needORT(t)
	m, err := Load(BuiltinMultilingual, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if n := m.Manifest().Name; n != "redactd-ner-multilingual" {
		t.Errorf("manifest name %q, want redactd-ner-multilingual", n)
	}
	d := NewDetector(m, DetectorOptions{})
	for _, c := range []struct{ text, name string }{
		{"Gestern hat Frau Sabine Hoffmann den Vertrag in München unterschrieben.", "Hoffmann"},
		{"Le contrat a été signé hier par Madame Claire Dubois à Lyon.", "Dubois"},
		{"El contrato fue firmado ayer por la señora Lucía Fernández en Sevilla.", "Fernández"},
		{"Il contratto è stato firmato ieri dalla signora Giulia Bianchi a Torino.", "Bianchi"},
		{"Het contract is gisteren ondertekend door mevrouw Sanne de Vries in Utrecht.", "Vries"},
		{"O contrato foi assinado ontem pela senhora Ana Rodrigues em Coimbra.", "Rodrigues"},
	} {
		p := testPage(c.text)
		spans, err := d.Detect(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		checkSpans(t, p, spans)
		found := false
		for _, s := range spans {
			for w := s.First; w <= s.Last; w++ {
				found = found || (s.Category == page.Person && strings.HasPrefix(p.Words[w].Text, c.name))
			}
		}
		if !found {
			t.Errorf("%q: %s not in a Person span (%v)", c.text, c.name, spans)
		}
	}
}

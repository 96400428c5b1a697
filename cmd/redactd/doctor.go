package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cockroachdb/pebble"
	"github.com/cockroachdb/pebble/vfs"
	onnx "github.com/yalue/onnxruntime_go"
	"golang.org/x/sys/cpu"

	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/pipeline/mupdf"
	"github.com/redactd/redactd/engine/store/joblog"
	"github.com/redactd/redactd/engine/store/pebblestore"
	"github.com/redactd/redactd/engine/store/storelog"
	"github.com/redactd/redactd/engine/webhook"
	"github.com/redactd/redactd/models/ner"
	"github.com/redactd/redactd/models/ocr"
	"github.com/redactd/redactd/models/ort"
)

// version is the release this binary was built from; `make bundle` sets it
// with -ldflags "-X main.version=...". Plain `go build` leaves "dev".
var version = "dev"

func printVersion(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usagef("version takes no arguments")
	}
	_, err := fmt.Fprintf(stdout, "redactd %s (%s, %s/%s)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return err
}

// Doctor thresholds for the data directory's free space.
const (
	doctorFreeWarn = 1 << 30   // below this: warn
	doctorFreeFail = 100 << 20 // below this: FAIL (uploads would be refused soon)
)

// sumsFile is the checksum list `make bundle` ships and install.sh places
// next to the library and the models (sha256sum format).
const sumsFile = "SHA256SUMS"

// ocrFiles are the files models/ocr loads from its directory
// (deploy/setup.sh fetches them; the bundle ships them).
var ocrFiles = []string{"det.onnx", "cls.onnx", "rec.onnx", "ppocr_keys_v1.txt"}

// errDoctorFailed is returned when at least one check failed.
var errDoctorFailed = errors.New("doctor: installation has problems")

// Check outcomes, printed in the first column.
const (
	checkOK   = "ok"
	checkWarn = "warn"
	checkFail = "FAIL"
)

type checkResult struct {
	status, name, detail string
}

// doctorRun collects the results of one `redactd doctor`. Later checks use
// what earlier ones found (the library path, a rendered test page), so
// they run in a fixed order.
type doctorRun struct {
	cfg     config.Config
	results []checkResult

	ortReady bool        // ONNX Runtime loaded
	noGPU    bool        // device cuda, but the CUDA provider is missing
	page     *image.Gray // the test page rendered by MuPDF, for OCR
	words    []string    // the words of that page, as drawn
	ctx      context.Context
}

func (d *doctorRun) add(status, name, format string, args ...any) {
	d.results = append(d.results, checkResult{status, name, fmt.Sprintf(format, args...)})
}

func (d *doctorRun) failed() int {
	n := 0
	for _, r := range d.results {
		if r.status == checkFail {
			n++
		}
	}
	return n
}

// doctor checks an installation the way `serve` would use it: same
// settings (flags, REDACTD_* variables, --config file), same library and
// model search. It prints one line per check, "ok|warn|FAIL  name: detail",
// and fails when any check failed. It never changes the data directory: the
// job log is opened read-only, and not at all while a server holds it.
func doctor(args []string, stdout, stderr io.Writer) error {
	cfg, fs, err := loadConfig("doctor", args, stderr, nil)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("doctor: unexpected argument %q", fs.Arg(0))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d := &doctorRun{cfg: cfg, ctx: ctx}
	d.run()
	for _, r := range d.results {
		fmt.Fprintf(stdout, "%-4s  %s: %s\n", r.status, r.name, r.detail)
	}
	if n := d.failed(); n > 0 {
		return fmt.Errorf("%w: %d check(s) failed", errDoctorFailed, n)
	}
	return nil
}

func (d *doctorRun) run() {
	d.add(checkOK, "version", "redactd %s (%s, %s/%s)", version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	d.checkCPU()
	d.checkMuPDF()
	d.checkDataDir()
	if d.cfg.Engine == "nats" {
		d.checkCluster()
	} else {
		d.checkRecords()
	}
	lib := d.checkORT()
	d.checkGPU(lib)
	d.checkNER()
	d.checkNERMultilingual()
	d.checkOCR()
	d.checkWebhooks()
}

// checkWebhooks parses webhook-allow-hosts the way serve does (a bad
// entry stops serve) and says whether webhooks are on.
func (d *doctorRun) checkWebhooks() {
	a, err := webhook.ParseAllowList(d.cfg.WebhookAllowHosts)
	switch {
	case err != nil:
		d.add(checkFail, "webhooks", "%v", err)
	case !a.Enabled():
		d.add(checkOK, "webhooks", "off (webhook-allow-hosts is empty; callback_url is refused)")
	default:
		d.add(checkOK, "webhooks", "on for %s; retried for %v from %v", d.cfg.WebhookAllowHosts, d.cfg.WebhookRetryFor, d.cfg.WebhookRetryBase)
	}
}

// checkCPU reports the vector extensions ONNX Runtime and the pixel kernels
// pick their code paths by. golang.org/x/sys/cpu reads them with CPUID and
// also checks that the kernel saves the wide registers (XGETBV), which
// /proc/cpuinfo's flags alone do not tell.
func (d *doctorRun) checkCPU() {
	if runtime.GOARCH != "amd64" {
		d.add(checkOK, "cpu", "%s, %d CPUs", runtime.GOARCH, runtime.NumCPU())
		return
	}
	x := cpu.X86
	var feats []string
	for _, f := range []struct {
		name string
		has  bool
	}{{"AVX2", x.HasAVX2}, {"FMA", x.HasFMA}, {"AVX-512F", x.HasAVX512F}, {"AVX-512BW", x.HasAVX512BW},
		{"AVX-512VL", x.HasAVX512VL}, {"AVX-512VNNI", x.HasAVX512VNNI}} {
		if f.has {
			feats = append(feats, f.name)
		}
	}
	list := strings.Join(feats, " ")
	if list == "" {
		list = "no AVX2/AVX-512"
	}
	if !x.HasAVX2 {
		d.add(checkWarn, "cpu", "%d CPUs, %s: ONNX Runtime falls back to SSE kernels; models run several times slower", runtime.NumCPU(), list)
		return
	}
	d.add(checkOK, "cpu", "%d CPUs, %s", runtime.NumCPU(), list)
}

// doctorPDF is a one-page PDF that says doctorText in Helvetica 24 pt. It
// is a fixture of its own, so the daemon links no test kit;
// TestDoctorFixture regenerates it with internal/testkit/testpdf and
// fails when the two differ (go test -run TestDoctorFixture -update
// rewrites it).
//
//go:embed doctor.pdf
var doctorPDF []byte

const doctorText = "Doctor check 4711"

// checkMuPDF opens doctorPDF with the linked MuPDF, extracts its words
// and renders it; the rendered page feeds the OCR check.
func (d *doctorRun) checkMuPDF() {
	const text = doctorText
	md, err := mupdf.Open(doctorPDF, mupdf.Options{StoreBytes: 16 << 20})
	if err != nil {
		d.add(checkFail, "mupdf", "opening a test PDF: %v", err)
		return
	}
	defer md.Close()
	pg, err := md.LoadPage(d.ctx, 0)
	if err != nil {
		d.add(checkFail, "mupdf", "loading the test page: %v", err)
		return
	}
	defer pg.Close()
	var got []string
	for _, w := range pg.Words() {
		got = append(got, w.Text)
	}
	if strings.Join(got, " ") != text {
		d.add(checkFail, "mupdf", "test page text read as %q, want %q", strings.Join(got, " "), text)
		return
	}
	r, err := pg.Render(d.ctx, 150, 10_000_000)
	if err != nil {
		d.add(checkFail, "mupdf", "rendering the test page: %v", err)
		return
	}
	defer r.Release()
	d.page = toGray(r.W, r.H, r.Channels, r.Stride, r.Pix)
	d.words = got
	d.add(checkOK, "mupdf", "linked (go-fitz); opened, extracted and rendered a test PDF (%dx%d px)", r.W, r.H)
}

// toGray copies a raster into an image the OCR check owns.
func toGray(w, h, ch, stride int, pix []byte) *image.Gray {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		row := pix[y*stride:]
		for x := range w {
			if ch == 1 {
				g.Pix[y*g.Stride+x] = row[x]
			} else {
				i := x * ch
				g.Pix[y*g.Stride+x] = uint8((int(row[i]) + int(row[i+1]) + int(row[i+2])) / 3)
			}
		}
	}
	return g
}

// checkDataDir checks that the data directory can be written and has room.
func (d *doctorRun) checkDataDir() {
	dir := d.cfg.Data
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		parent := filepath.Dir(filepath.Clean(dir))
		if err := writable(parent); err != nil {
			d.add(checkFail, "data directory", "%s does not exist and cannot be created: %v", dir, err)
			return
		}
		d.add(checkWarn, "data directory", "%s does not exist yet; serve creates it (mode 0700)", dir)
		return
	case err != nil:
		d.add(checkFail, "data directory", "%v", err)
		return
	case !st.IsDir():
		d.add(checkFail, "data directory", "%s is not a directory", dir)
		return
	}
	if err := writable(dir); err != nil {
		d.add(checkFail, "data directory", "%s is not writable by this user: %v", dir, err)
		return
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		d.add(checkWarn, "data directory", "%s: free space unknown: %v", dir, err)
		return
	}
	free := int64(fs.Bavail) * int64(fs.Bsize)
	detail := fmt.Sprintf("%s writable, %s free", dir, humanBytes(free))
	switch {
	case free < doctorFreeFail:
		d.add(checkFail, "data directory", "%s: uploads will be refused (503) when the disk fills", detail)
	case free < doctorFreeWarn:
		d.add(checkWarn, "data directory", "%s: less than %s", detail, humanBytes(doctorFreeWarn))
	case jobs.CheckDataDir(dir) != nil && d.cfg.AllowOpenDataDir:
		d.add(checkWarn, "data directory", "%s; %v (allow-open-data-dir is set, so serve starts)", detail, jobs.CheckDataDir(dir))
	case jobs.CheckDataDir(dir) != nil:
		d.add(checkFail, "data directory", "%s; serve refuses it: %v", detail, jobs.CheckDataDir(dir))
	default:
		d.add(checkOK, "data directory", "%s", detail)
	}
}

// writable creates and removes a file in dir.
func writable(dir string) error {
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// checkRecords reads the record store's layout version without changing
// it: the store is opened read-only, and not at all while a server
// answers on the admin socket (the server holds pebble's lock; it checked
// the layout when it started). The store is DATA/store (engine/store/storelog
// over engine/store/pebblestore); a data directory of a release before
// it has the job log at DATA/joblog instead, which serve moves to
// DATA/store at its next start (key meta/schema is part of joblog's
// documented layout).
func (d *doctorRun) checkRecords() {
	const name = "records"
	st, jl := filepath.Join(d.cfg.Data, "store"), filepath.Join(d.cfg.Data, "joblog")
	has := func(dir string) bool {
		_, err := os.Stat(filepath.Join(dir, "CURRENT"))
		return err == nil
	}
	dir, read, current := st, readStoreSchema, storelog.SchemaVersion
	switch {
	case has(st):
	case has(jl):
		dir, read, current = jl, readSchema, joblog.SchemaVersion
	default:
		d.add(checkOK, name, "none yet in %s (created on first serve)", d.cfg.Data)
		return
	}
	if adminAnswers(adminSocket(d.cfg)) {
		d.add(checkOK, name, "a server is running on %s (its admin socket answers) and holds the store; layout not read", d.cfg.Data)
		return
	}
	v, err := read(dir)
	var locked *lockedError
	switch {
	case errors.As(err, &locked):
		d.add(checkWarn, name, "%s is locked by another process (a redactd starting or stopping?): %v", dir, locked.err)
	case err != nil:
		d.add(checkFail, name, "%s: %v", dir, err)
	case v > current:
		d.add(checkFail, name, "%s: schema version %d is newer than this binary supports (%d): the data was written by a newer redactd; install that release again", dir, v, current)
	case dir == jl:
		d.add(checkOK, name, "job log of an earlier release in %s (schema version %d); serve moves it to %s on start and keeps it as %s.migrated (back up %s first)", jl, v, st, jl, d.cfg.Data)
	case v < current:
		d.add(checkOK, name, "schema version %d; serve upgrades it to %d on start (back up %s first)", v, current, d.cfg.Data)
	default:
		d.add(checkOK, name, "schema version %d (current)", v)
	}
}

// readStoreSchema opens the record store read-only and returns its
// layout version (storelog.ReadSchema).
func readStoreSchema(dir string) (v int, err error) {
	lk, lerr := pebble.LockDirectory(dir, vfs.Default)
	if lerr != nil {
		return 0, &lockedError{lerr}
	}
	lk.Close()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pebble: %v", r)
		}
	}()
	ps, err := pebblestore.Open(dir, pebblestore.Options{ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("open read-only: %w", err)
	}
	defer ps.Close()
	v, err = storelog.ReadSchema(context.Background(), ps.Docs())
	if err == nil && v == 0 {
		err = errors.New("no schema version recorded (not a redactd record store?)")
	}
	return v, err
}

type lockedError struct{ err error }

func (e *lockedError) Error() string { return e.err.Error() }

// readSchema opens the pebble store read-only and returns meta/schema.
func readSchema(dir string) (v int, err error) {
	// Held by another process (or this one): pebble's LOCK file.
	lk, lerr := pebble.LockDirectory(dir, vfs.Default)
	if lerr != nil {
		return 0, &lockedError{lerr}
	}
	lk.Close()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pebble: %v", r)
		}
	}()
	db, err := pebble.Open(dir, &pebble.Options{ReadOnly: true, Logger: quietPebble{}})
	if err != nil {
		return 0, fmt.Errorf("open read-only: %w", err)
	}
	defer db.Close()
	val, closer, err := db.Get([]byte("meta/schema"))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, errors.New("no schema version recorded (not a redactd job log?)")
	}
	if err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	defer closer.Close()
	v, err = strconv.Atoi(string(val))
	if err != nil {
		return 0, fmt.Errorf("bad schema version %q", val)
	}
	return v, nil
}

// quietPebble drops pebble's informational messages; a fatal one aborts
// the check (recovered in readSchema) instead of the process.
type quietPebble struct{}

func (quietPebble) Infof(string, ...any) {}
func (quietPebble) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(format, args...))
}

// checkORT finds and loads the ONNX Runtime library the way serve does and
// returns its path ("" when it was not found).
func (d *doctorRun) checkORT() string {
	loc, err := ort.LocateLibrary(d.cfg.ORTLib)
	if err != nil {
		d.add(checkFail, "onnxruntime", "%v (set --ort-lib or REDACTD_ORT_LIB)", err)
		return ""
	}
	lib := loc.Path
	sums := sumsNote(filepath.Dir(lib), []string{filepath.Base(lib)})
	if sums.status == checkFail {
		d.add(checkFail, "onnxruntime", "%s: %s", lib, sums.detail)
		return lib
	}
	err = ort.Init(ort.Options{LibPath: lib, Device: d.cfg.Device, Threads: d.cfg.ORTThreads})
	if err != nil {
		d.add(checkFail, "onnxruntime", "%s does not load: %v", lib, err)
		return lib
	}
	d.ortReady = true
	d.add(sums.status, "onnxruntime", "%s loaded, version %s%s; %s", lib, onnx.GetVersion(), sums.detail, fromNote(loc.From))
	return lib
}

// fromNote says where a located file came from, for the doctor's lines.
func fromNote(from string) string {
	switch from {
	case ort.FromSetting:
		return "from the setting (flag, config file)"
	case ort.FromEnv:
		return "from the environment"
	case ort.FromExecutable:
		return "found beside the executable"
	case ort.FromCache:
		return "found in .cache (make setup)"
	case ort.FromSystem:
		return "found in the system path"
	}
	return "found in " + from
}

// checkGPU tries to add the CUDA execution provider to a session, which is
// what every model session does with --device cuda.
func (d *doctorRun) checkGPU(lib string) {
	if d.cfg.Device != "cuda" {
		d.add(checkOK, "gpu", "not used (device %s)", d.cfg.Device)
		return
	}
	if !d.ortReady {
		d.add(checkFail, "gpu", "not checked: ONNX Runtime did not load")
		return
	}
	err := func() error {
		so, err := onnx.NewSessionOptions()
		if err != nil {
			return err
		}
		defer so.Destroy()
		co, err := onnx.NewCUDAProviderOptions()
		if err != nil {
			return err
		}
		defer co.Destroy()
		return so.AppendExecutionProviderCUDA(co)
	}()
	if err != nil {
		d.add(checkFail, "gpu", "device cuda: %s has no usable CUDA execution provider (%v). "+
			"Use the GPU build of ONNX Runtime %s (onnxruntime-linux-x64-gpu): put libonnxruntime.so.1, "+
			"libonnxruntime_providers_cuda.so and libonnxruntime_providers_shared.so in one directory, "+
			"point --ort-lib at its libonnxruntime.so.1, and install CUDA 12 and cuDNN 9; or use --device cpu",
			lib, err, onnx.GetVersion())
		d.noGPU = true
		return
	}
	d.add(checkOK, "gpu", "CUDA execution provider available in %s", lib)
}

// modelsBlocked says why models cannot be loaded, or "".
func (d *doctorRun) modelsBlocked() string {
	switch {
	case !d.ortReady:
		return "not checked: ONNX Runtime did not load"
	case d.noGPU:
		return "not loaded: device cuda has no CUDA execution provider (see gpu)"
	}
	return ""
}

// checkNER loads the configured NER model and tags a sentence.
func (d *doctorRun) checkNER() {
	d.checkNERModel("ner model", "--ner-model", d.cfg.NERModel, "Please contact Maria Schmidt at Northwind Traders in Hamburg.")
}

// checkNERMultilingual loads the second NER model (ner-model-multilingual)
// and tags a German sentence: serve loads it at start, so a directory
// that holds no model stops serve.
func (d *doctorRun) checkNERMultilingual() {
	const name = "multilingual ner model"
	multi := d.cfg.NERModelMulti
	if ner.Off(multi) {
		d.add(checkOK, name, "not used (ner-model-multilingual off): every block is read by ner-model")
		return
	}
	d.checkNERModel(name, "--ner-model-multilingual", multi, "Bitte wenden Sie sich an Frau Sabine Hoffmann von der Nordwind GmbH in Hamburg.")
}

// checkNERModel is the check called name of the NER model dir (set by
// flag): a directory (not one of the embedded models) must exist and
// match its SHA256SUMS when it has one; the model must load and tag
// sentence.
func (d *doctorRun) checkNERModel(name, flag, dir, sentence string) {
	embedded := ner.Embedded(dir)
	if msg := d.modelsBlocked(); msg != "" {
		d.add(checkFail, name, "%s", msg)
		return
	}
	if !embedded {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			d.add(checkFail, name, "%s is not a directory (%s)", dir, flag)
			return
		}
		if s := sumsNote(dir, nil); s.status == checkFail {
			d.add(checkFail, name, "%s: %s", dir, s.detail)
			return
		}
	}
	m, err := ner.Load(dir, ner.Options{BatchSize: d.cfg.BatchSize, BatchWait: d.cfg.BatchWait})
	if err != nil {
		d.add(checkFail, name, "%q does not load: %v", dir, err)
		return
	}
	defer m.Close()
	toks := ner.Tokenize(sentence)
	labels, _, err := m.Tag(d.ctx, toks)
	if err != nil || len(labels) != len(toks) {
		d.add(checkFail, name, "loaded, but tagging a test sentence failed: %v (%d labels for %d tokens)", err, len(labels), len(toks))
		return
	}
	mf := m.Manifest()
	from := "from the setting (flag, config file)"
	if embedded {
		from = "embedded in the executable"
	}
	d.add(checkOK, name, "%s %s %s loaded, %d labels, test sentence tagged; %s", dir, mf.Name, mf.Version, len(m.Labels()), from)
}

// checkOCR checks the OCR files (and their SHA256SUMS when shipped beside
// them), loads the three models and reads the MuPDF test page.
func (d *doctorRun) checkOCR() {
	if d.cfg.OCR == "off" {
		d.add(checkOK, "ocr models", "not used (ocr off)")
		return
	}
	root, err := ort.LocateModelDir(d.cfg.ModelDir)
	var dir string
	if err == nil {
		dir, err = ocr.ModelDir(root.Path)
	}
	if err != nil {
		d.add(checkFail, "ocr model files", "%v (set --model-dir or REDACTD_MODEL_DIR, or --ocr off)", err)
		return
	}
	var missing []string
	for _, f := range ocrFiles {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		d.add(checkFail, "ocr model files", "%s lacks %s", dir, strings.Join(missing, ", "))
		return
	}
	// SHA256SUMS is next to the files or one level up (model root).
	sums := sumsNote(dir, nil)
	if !sums.found {
		sums = sumsNote(filepath.Dir(dir), nil)
	}
	d.add(sums.status, "ocr model files", "%s: %s%s; %s", dir, strings.Join(ocrFiles, ", "), sums.detail, fromNote(root.From))
	if sums.status == checkFail {
		return
	}

	if msg := d.modelsBlocked(); msg != "" {
		d.add(checkFail, "ocr models", "%s", msg)
		return
	}
	e, err := ocr.New(dir, ocr.Options{MaxSide: d.cfg.OCRMaxSide, Model: d.cfg.OCRModel, Charset: d.cfg.OCRCharset, BatchSize: d.cfg.BatchSize, BatchWait: d.cfg.BatchWait})
	if err != nil {
		d.add(checkFail, "ocr models", "do not load: %v", err)
		return
	}
	defer e.Close()
	if d.page == nil {
		blank := ocr.Image{W: 64, H: 32, Channels: 1, Stride: 64, Pix: make([]byte, 64*32)}
		if _, err := e.Recognize(d.ctx, blank, image.Rectangle{}); err != nil {
			d.add(checkFail, "ocr models", "loaded, but a test run failed: %v", err)
			return
		}
		d.add(checkOK, "ocr models", "detection, direction and recognition (%s) loaded; test run ok", ocr.Describe(d.cfg.OCRModel))
		return
	}
	g := d.page
	lines, err := e.Recognize(d.ctx, ocr.Image{W: g.Rect.Dx(), H: g.Rect.Dy(), Channels: 1, Stride: g.Stride, Pix: g.Pix}, image.Rectangle{})
	if err != nil {
		d.add(checkFail, "ocr models", "loaded, but reading the test page failed: %v", err)
		return
	}
	var read []string
	for _, l := range lines {
		read = append(read, l.Text)
	}
	got, want := strings.Join(read, " "), strings.Join(d.words, " ")
	if !strings.EqualFold(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(want, " ", "")) {
		d.add(checkWarn, "ocr models", "loaded, but the test page read as %q, want %q", got, want)
		return
	}
	d.add(checkOK, "ocr models", "detection, direction and recognition (%s) loaded; test page read correctly", ocr.Describe(d.cfg.OCRModel))
}

// sumsResult is the outcome of checking files against a SHA256SUMS file;
// detail starts with "; " or is empty, to append to a check's line.
type sumsResult struct {
	status, detail string
	found          bool
}

// sumsNote verifies the entries of dir/SHA256SUMS: only those named in
// names when names is not nil (each of which must be listed), else every
// entry. No SHA256SUMS is not an error: a source checkout has none
// (deploy/setup.sh verified the files when it fetched them).
func sumsNote(dir string, names []string) sumsResult {
	path := filepath.Join(dir, sumsFile)
	sums, err := readSums(path)
	if errors.Is(err, os.ErrNotExist) {
		return sumsResult{status: checkOK, detail: "; no " + sumsFile + " beside it (checksums not verified)"}
	}
	if err != nil {
		return sumsResult{status: checkFail, detail: err.Error(), found: true}
	}
	check := names
	if check == nil {
		for n := range sums {
			check = append(check, n)
		}
	}
	for _, n := range check {
		want, ok := sums[n]
		if !ok {
			return sumsResult{status: checkFail, detail: fmt.Sprintf("%s is not listed in %s", n, path), found: true}
		}
		got, err := fileSHA256(filepath.Join(dir, n))
		if err != nil {
			return sumsResult{status: checkFail, detail: err.Error(), found: true}
		}
		if got != want {
			return sumsResult{status: checkFail, detail: fmt.Sprintf("%s: SHA-256 %s does not match %s (%s): damaged or replaced", n, got, path, want), found: true}
		}
	}
	return sumsResult{status: checkOK, detail: fmt.Sprintf("; %d file(s) match %s", len(check), path), found: true}
}

// readSums parses sha256sum output: "HEX  NAME" or "HEX *NAME" per line.
func readSums(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, name, ok := strings.Cut(line, " ")
		name = strings.TrimPrefix(strings.TrimLeft(name, " "), "*")
		if b, err := hex.DecodeString(sum); !ok || err != nil || len(b) != sha256.Size || name == "" {
			return nil, fmt.Errorf("%s:%d: not a sha256sum line", path, n)
		}
		sums[filepath.Clean(name)] = strings.ToLower(sum)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(sums) == 0 {
		return nil, fmt.Errorf("%s lists no files", path)
	}
	return sums, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

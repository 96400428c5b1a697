// Package config is the one place where redactd's settings are defined.
// Every setting has a name, a default, an environment variable
// (REDACTD_ + upper-cased name with '-' as '_') and a command-line flag of
// the same name. Values are applied in order: defaults, the optional config
// file (JSON object keyed by setting name), environment, flags.
//
// The configuration reference, docs/configuration.md, is generated from Settings (see
// Reference), so the documentation cannot drift from the code.
package config

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/netip"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Config holds every setting. Field tags: `name` is the flag and file key,
// `help` is the one-line description, `def` is the default as text.
type Config struct {
	// Server
	Data             string `name:"data" def:"./data" help:"data directory: record store (pebble) and document files"`
	AllowOpenDataDir bool   `name:"allow-open-data-dir" def:"false" help:"start even when other users may read, write or enter the data directory (serve refuses by default; redactd still makes everything it creates inside 0700/0600)"`
	Listen           string `name:"listen" def:"127.0.0.1:8080" help:"HTTP listen address for the API"`
	PublicURL        string `name:"public-url" def:"" help:"base URL clients reach the server at, used in upload_url and redacted_pdf_path (default http://LISTEN)"`
	MetricsListen    string `name:"metrics-listen" def:"127.0.0.1:9464" help:"listen address of GET /metrics (Prometheus text, no key), apart from the API so a proxy in front of the API cannot expose it; keep it on loopback or a scraper-only network; empty turns it off"`
	AdminSock        string `name:"admin-socket" def:"" help:"unix socket for admin commands while serving (default DATA/admin.sock)"`
	Pprof            bool   `name:"pprof" def:"false" help:"serve /debug/pprof/ on the admin socket"`
	LogLevel         string `name:"log-level" def:"info" help:"debug, info, warn or error"`
	LogFormat        string `name:"log-format" def:"json" help:"json or text"`

	// Limits
	MaxUploadBytes     int64         `name:"max-upload-bytes" def:"104857600" help:"largest accepted file in bytes (413 above it at init; 400 on multipart)"`
	MaxRequestBytes    int64         `name:"max-request-bytes" def:"268435456" help:"largest multipart request body in bytes"`
	MaxFilesPerJob     int           `name:"max-files-per-job" def:"50" help:"most files in one job"`
	MaxPagesPerDoc     int           `name:"max-pages-per-doc" def:"2000" help:"documents with more pages end in error"`
	MaxPagePixels      int64         `name:"max-page-pixels" def:"60000000" help:"largest page raster in pixels at output dpi; larger pages are rendered at a reduced dpi, image files above 2x this end in error"`
	MaxTermCount       int           `name:"max-terms" def:"1000" help:"most entries in pii_included_terms or pii_excluded_terms"`
	MaxConcurrentJobs  int           `name:"max-concurrent-jobs" def:"64" help:"documents being processed at once across all jobs; further documents wait in the queue"`
	UploadURLTTL       time.Duration `name:"upload-url-ttl" def:"15m" help:"lifetime of direct-upload URLs"`
	OutputTTL          time.Duration `name:"output-ttl" def:"24h" help:"how long outputs of ephemeral jobs are kept"`
	StudioTTL          time.Duration `name:"studio-ttl" def:"720h" help:"how long studio jobs (originals, masks, outputs) are kept"`
	JanitorInterval    time.Duration `name:"janitor-interval" def:"1m" help:"how often expired jobs are purged"`
	RateLimit          float64       `name:"rate-limit" def:"20" help:"requests per second allowed per API key (token bucket refill rate); 0 disables"`
	RateBurst          int           `name:"rate-burst" def:"40" help:"token bucket size per API key"`
	AuthFailRate       float64       `name:"auth-fail-rate" def:"1" help:"failed authentications per second allowed per client address and per key prefix (token bucket refill rate); past the burst a failure gets 429 instead of 401; valid keys are never limited by it; 0 disables"`
	AuthFailBurst      int           `name:"auth-fail-burst" def:"20" help:"token bucket size for failed authentications per client address and per key prefix"`
	ShutdownGrace      time.Duration `name:"shutdown-grace" def:"60s" help:"on SIGTERM or SIGINT: new jobs get 503 at once, documents being processed may finish for this long, the rest go back to the queue (processed again after the next start); requests in flight then get 10 s more"`
	HeaderReadTimeout  time.Duration `name:"header-read-timeout" def:"10s" help:"longest a client may take to send a request's line and headers (from connecting, or from its first byte on a kept-alive connection); the body then has its own 10 minute limit"`
	MaxConnsPerAddress int           `name:"max-conns-per-address" def:"128" help:"open connections allowed from one client address (the TCP peer; trusted-proxies are exempt); a further one is answered 429 and closed; 0 disables"`
	TrustedProxies     string        `name:"trusted-proxies" def:"" help:"comma-separated addresses or CIDRs of reverse proxies in front of redactd; from these peers only, the client address is taken from Forwarded or X-Forwarded-For (the rightmost hop that is not itself a trusted proxy), for the failed-authentication limit; empty trusts none"`
	FreePages          int64         `name:"free-pages" def:"5" help:"page quota of a new free-plan account"`
	StandardPages      int64         `name:"standard-pages" def:"10000" help:"page quota of a new standard-plan account"`

	// Pipeline
	DPI                   float64       `name:"dpi" def:"150" help:"output resolution in dots per inch"`
	Workers               int           `name:"workers" def:"0" help:"page workers (render, words, burn, encode); 0 means the number of CPUs"`
	MaxPixelsInFlight     int64         `name:"max-pixels-in-flight" def:"64000000" help:"cap on raster pixels held by pages in flight (3 bytes each), bounding memory whatever the number of jobs"`
	MuPDFStoreBytes       int64         `name:"mupdf-store-bytes" def:"33554432" help:"MuPDF resource cache per document in bytes (fonts and images a document's pages reuse; a scanned page's own images leave it once the page is drawn)"`
	PageTimeout           time.Duration `name:"page-timeout" def:"10m" help:"longest one page may take once a worker starts on it (model queues included) before its document ends in error"`
	JPEGQuality           int           `name:"jpeg-quality" def:"85" help:"quality of JPEG-encoded photographic pages"`
	TextBits              int           `name:"text-bits" def:"4" help:"bits per sample of text-like output pages: 4 (16 levels, about half the size) or 8 (lossless)"`
	TermsIgnoreDiacritics bool          `name:"terms-ignore-diacritics" def:"false" help:"match pii_included_terms and pii_excluded_terms without diacritics on both sides (Muller matches Müller, Lukasz Łukasz); off by default, since it also masks people whose names differ only by an accent"`

	// Models
	ModelDir             string        `name:"model-dir" def:"" help:"directory with the OCR models (default: searched: ../models and ../share/redactd/models of the executable, .cache/models, /usr/share/redactd/models)"`
	ORTLib               string        `name:"ort-lib" def:"" help:"path to libonnxruntime.so (default: searched: ../lib and ../lib/redactd of the executable, .cache/ort, /usr/lib/redactd)"`
	Device               string        `name:"device" def:"cpu" help:"ONNX Runtime execution provider: cpu or cuda"`
	ORTThreads           int           `name:"ort-threads" def:"0" help:"ONNX Runtime threads the models keep busy at once (the slots of their shared lane, capped by GOMAXPROCS): on the CPU every model run is single-threaded and holds one slot (the NER model and the OCR recogniser run a batch's chunks side by side), a Hugging Face NER model's run holds all of them on that many intra-op threads; 0 means the number of CPUs"`
	NERModel             string        `name:"ner-model" def:"builtin" help:"builtin, or a directory with a Hugging Face token-classification model.onnx, tokenizer.json and labels.json"`
	NERModelMulti        string        `name:"ner-model-multilingual" def:"builtin-multilingual" help:"the second NER model, which reads the blocks whose language is German, French, Spanish, Italian, Dutch or Portuguese: builtin-multilingual (embedded; docs/languages.md, Multilingual NER), a directory with a model (the built-in model's format, or a Hugging Face one), or off (ner-model reads every block). English blocks, and blocks whose language the identifier cannot tell surely (too short, English close behind, or text that fits none of the seven languages), stay with ner-model. Costs about 130 MB of memory"`
	NERMultiEnglish      float64       `name:"ner-multilingual-english-prob" def:"0" help:"with ner-model-multilingual: also keep ner-model's spans in the non-English blocks where the multilingual model gives a word at least this probability of an entity (both models then read those blocks); 0 reads them with the multilingual model alone"`
	NERRecall            float64       `name:"ner-entity-prob" def:"0.2" help:"a word whose likeliest entity label has at least this probability is masked even when 'no entity' is likelier (recall first); 1 decodes by plain argmax"`
	NERPersonRecall      float64       `name:"ner-person-prob" def:"0.1" help:"ner-entity-prob for persons alone: a word whose likeliest person label has at least this probability is masked as a person (a missed name is the worst leak; see models/ner/README.md, Decoding)"`
	NERMultiPersonRecall float64       `name:"ner-multilingual-person-prob" def:"0.07" help:"ner-person-prob for ner-model-multilingual, which reads the German, French, Spanish, Italian, Dutch and Portuguese blocks: chosen on those languages' dev splits (docs/languages.md, A lower person threshold for the six languages)"`
	BatchSize            int           `name:"batch-size" def:"64" help:"largest model batch (NER sentences, OCR lines)"`
	BatchWait            time.Duration `name:"batch-wait" def:"3ms" help:"longest a model request waits for a batch to fill"`
	OCR                  string        `name:"ocr" def:"auto" help:"auto (scans, pages using a font whose text layer disagrees with its pixels, and ink no text-layer word explains: images, outlines), always, or off"`
	OCRMaxSide           int           `name:"ocr-max-side" def:"1536" help:"longest side in pixels of the image fed to text detection"`
	OCRCharset           string        `name:"ocr-charset" def:"latin" help:"characters PP-OCRv4's recogniser reads: latin (Latin, digits, punctuation, symbols, some Greek and Cyrillic: faster) or all (its full dictionary, with Chinese); redactd-latin always reads its own Latin set"`
	OCRModel             string        `name:"ocr-model" def:"redactd-latin" help:"text-line recogniser: redactd-latin (the project's own, built into the binary: every letter of Europe's Latin alphabets, about a fifth of PP-OCRv4's arithmetic; the default since it passed the gate in models/ocr/README.md) or ppocrv4 (PaddleOCR PP-OCRv4, installed by make setup: no letters such as ð ł ő ș ț, marks often dropped)"`

	// Review editor
	ReviewLinkTTL  time.Duration `name:"review-link-ttl" def:"30m" help:"how long a review link (POST /v1/jobs/{job_id}/review-link) can be redeemed; each link works once"`
	ReviewIdle     time.Duration `name:"review-session-idle" def:"30m" help:"a review editor session ends after this long without a request"`
	ReviewMaxAge   time.Duration `name:"review-session-max" def:"8h" help:"a review editor session ends this long after its link was redeemed, however active"`
	ReviewMaxMasks int           `name:"review-max-masks" def:"20000" help:"most masks in one document's review state (PUT /v1/documents/{doc_id}/masks answers 400 above it)"`
	ReviewRescan   bool          `name:"review-rescan" def:"true" help:"at apply, read the new output again with the appliance's own OCR and detection and report anything still readable as PII (needs ocr other than off)"`
	ReviewReasons  string        `name:"review-reasons" def:"pii,third-party,privacy,security,legal-privilege,other" help:"comma-separated reason codes a reviewer may give a mask (an empty reason is always allowed)"`

	// Webhooks
	WebhookAllowHosts string        `name:"webhook-allow-hosts" def:"" help:"comma-separated host names, IP addresses and CIDRs a job's callback_url may point at; empty turns webhooks off (callback_url is refused)"`
	WebhookRetryBase  time.Duration `name:"webhook-retry-base" def:"10s" help:"delay before the first retry of a failed webhook delivery; it doubles per attempt (capped at 1h) with up to 50% jitter"`
	WebhookRetryFor   time.Duration `name:"webhook-retry-for" def:"24h" help:"how long a webhook delivery is retried after its first attempt before it is dropped"`
	WebhookTimeout    time.Duration `name:"webhook-timeout" def:"10s" help:"time limit of one webhook delivery attempt (connect, send, answer)"`
	WebhookWorkers    int           `name:"webhook-workers" def:"4" help:"webhook deliveries in flight at once; slow receivers hold only these, never the pipeline"`

	// Cluster
	Engine       string        `name:"engine" def:"pebble" help:"where jobs, documents, the queue and quotas live: pebble (this node alone, DATA/store) or nats (a NATS JetStream cluster that several redactd nodes share; needs nats-url)"`
	NATSURL      string        `name:"nats-url" def:"" help:"comma-separated URLs of the NATS servers of the cluster (engine nats)"`
	NATSPrefix   string        `name:"nats-prefix" def:"redactd" help:"prefix of the NATS buckets and stream (engine nats); two installations on one cluster use two prefixes"`
	NATSReplicas int           `name:"nats-replicas" def:"3" help:"copies of every NATS bucket and stream (engine nats): 3 on a 3-server cluster"`
	NATSLease    time.Duration `name:"nats-lease" def:"30s" help:"how long a node holds a document without extending its lease (engine nats): a dead node's documents go to another node this long after it died"`
	FilesDir     string        `name:"files-dir" def:"" help:"directory of originals, outputs and review files (default DATA/files); with engine nats, only this node's temporary files (the files themselves are blobs, see blob-store)"`
	BlobStore    string        `name:"blob-store" def:"nats" help:"where a cluster keeps originals, outputs and review files (engine nats): nats (the cluster's JetStream Object Store, in segments of at most 64 MiB) or dir (blob-dir, a directory every node mounts)"`
	BlobDir      string        `name:"blob-dir" def:"" help:"the directory every node mounts (NFS or similar) for blob-store dir"`
}

// Default returns the configuration with every default applied.
func Default() Config {
	var c Config
	forEach(&c, func(f field) {
		if err := f.set(f.def); err != nil {
			panic(fmt.Sprintf("config: bad default for %s: %v", f.name, err))
		}
	})
	return c
}

// Load builds a configuration from defaults, the file named by the
// "config" flag or REDACTD_CONFIG, environment variables and flags.
// args are the command-line arguments after the subcommand.
func Load(fs *flag.FlagSet, args []string) (Config, error) {
	c := Default()
	file := fs.String("config", os.Getenv("REDACTD_CONFIG"), "JSON config file")
	flags := map[string]*string{}
	forEach(&c, func(f field) {
		flags[f.name] = fs.String(f.name, "", f.help+" (default "+strconv.Quote(f.def)+")")
	})
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if *file != "" {
		if err := c.applyFile(*file); err != nil {
			return c, err
		}
	}
	var err error
	forEach(&c, func(f field) {
		if err != nil {
			return
		}
		if v, ok := os.LookupEnv(EnvName(f.name)); ok {
			if e := f.set(v); e != nil {
				err = fmt.Errorf("config: %s: %w", EnvName(f.name), e)
			}
		}
	})
	if err != nil {
		return c, err
	}
	fs.Visit(func(fl *flag.Flag) {
		if err != nil || fl.Name == "config" {
			return
		}
		forEach(&c, func(f field) {
			if f.name == fl.Name {
				if e := f.set(*flags[f.name]); e != nil {
					err = fmt.Errorf("config: --%s: %w", f.name, e)
				}
			}
		})
	})
	if err != nil {
		return c, err
	}
	return c, c.Validate()
}

// Validate checks values that parse but make no sense.
func (c *Config) Validate() error {
	switch {
	case c.DPI < 36 || c.DPI > 600:
		return fmt.Errorf("config: dpi %v outside 36..600", c.DPI)
	case c.Device != "cpu" && c.Device != "cuda":
		return fmt.Errorf("config: device %q: want cpu or cuda", c.Device)
	case c.OCR != "auto" && c.OCR != "always" && c.OCR != "off":
		return fmt.Errorf("config: ocr %q: want auto, always or off", c.OCR)
	case c.OCRCharset != "latin" && c.OCRCharset != "all":
		return fmt.Errorf("config: ocr-charset %q: want latin or all", c.OCRCharset)
	case c.OCRModel != "ppocrv4" && c.OCRModel != "redactd-latin":
		return fmt.Errorf("config: ocr-model %q: want ppocrv4 or redactd-latin", c.OCRModel)
	case c.MaxUploadBytes <= 0, c.MaxFilesPerJob <= 0, c.MaxPagesPerDoc <= 0, c.MaxPagePixels <= 0:
		return fmt.Errorf("config: limits must be positive")
	case c.JPEGQuality < 1 || c.JPEGQuality > 100:
		return fmt.Errorf("config: jpeg-quality %d outside 1..100", c.JPEGQuality)
	case c.NERRecall <= 0 || c.NERRecall > 1:
		return fmt.Errorf("config: ner-entity-prob %v outside (0, 1]", c.NERRecall)
	case c.NERMultiEnglish < 0 || c.NERMultiEnglish > 1:
		return fmt.Errorf("config: ner-multilingual-english-prob %v outside [0, 1]", c.NERMultiEnglish)
	case c.NERPersonRecall <= 0 || c.NERPersonRecall > 1:
		return fmt.Errorf("config: ner-person-prob %v outside (0, 1]", c.NERPersonRecall)
	case c.NERMultiPersonRecall <= 0 || c.NERMultiPersonRecall > 1:
		return fmt.Errorf("config: ner-multilingual-person-prob %v outside (0, 1]", c.NERMultiPersonRecall)
	case c.TextBits != 4 && c.TextBits != 8:
		return fmt.Errorf("config: text-bits %d: want 4 or 8", c.TextBits)
	case c.WebhookRetryBase <= 0, c.WebhookRetryFor <= 0, c.WebhookTimeout <= 0, c.WebhookWorkers <= 0:
		return fmt.Errorf("config: webhook-retry-base, webhook-retry-for, webhook-timeout and webhook-workers must be positive")
	case c.ReviewLinkTTL <= 0, c.ReviewIdle <= 0, c.ReviewMaxAge <= 0, c.ReviewMaxMasks <= 0:
		return fmt.Errorf("config: review-link-ttl, review-session-idle, review-session-max and review-max-masks must be positive")
	case c.Engine != "pebble" && c.Engine != "nats":
		return fmt.Errorf("config: engine %q: want pebble or nats", c.Engine)
	case c.Engine == "nats" && c.NATSURL == "":
		return fmt.Errorf("config: engine nats needs nats-url (the cluster's servers)")
	case c.BlobStore != "nats" && c.BlobStore != "dir":
		return fmt.Errorf("config: blob-store %q: want nats or dir", c.BlobStore)
	case c.Engine == "nats" && c.BlobStore == "dir" && c.BlobDir == "":
		return fmt.Errorf("config: blob-store dir needs blob-dir (a directory every node mounts)")
	case c.Engine == "nats" && (c.NATSReplicas < 1 || c.NATSReplicas > 5 || c.NATSLease < 3*time.Second):
		return fmt.Errorf("config: nats-replicas must be 1 to 5 and nats-lease at least 3s")
	}
	if err := checkCIDRs(c.TrustedProxies); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

func (c *Config) applyFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("config: %s: %w", path, err)
	}
	known := map[string]field{}
	forEach(c, func(f field) { known[f.name] = f })
	for k, v := range m {
		f, ok := known[k]
		if !ok {
			return fmt.Errorf("config: %s: unknown setting %q", path, k)
		}
		s := fmt.Sprint(v)
		if fl, ok := v.(float64); ok {
			s = strconv.FormatFloat(fl, 'f', -1, 64)
		}
		if err := f.set(s); err != nil {
			return fmt.Errorf("config: %s: %s: %w", path, k, err)
		}
	}
	return nil
}

// EnvName is the environment variable of a setting.
func EnvName(name string) string {
	return "REDACTD_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// Reference renders the settings as a Markdown table for docs/configuration.md.
func Reference() string {
	var rows []string
	var c Config
	forEach(&c, func(f field) {
		def := f.def
		if def == "" {
			def = "(empty)"
		}
		rows = append(rows, fmt.Sprintf("| `--%s` | `%s` | `%s` | %s |", f.name, EnvName(f.name), def, f.help))
	})
	sort.Strings(rows)
	return "| flag / file key | environment | default | meaning |\n|---|---|---|---|\n" + strings.Join(rows, "\n") + "\n"
}

type field struct {
	name, def, help string
	v               reflect.Value
}

func (f field) set(s string) error {
	switch f.v.Interface().(type) {
	case string:
		f.v.SetString(s)
	case bool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return err
		}
		f.v.SetBool(b)
	case int, int64:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return err
		}
		f.v.SetInt(n)
	case float64:
		n, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		f.v.SetFloat(n)
	case time.Duration:
		d, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		f.v.SetInt(int64(d))
	default:
		return fmt.Errorf("unsupported type %s", f.v.Type())
	}
	return nil
}

func forEach(c *Config, fn func(field)) {
	v := reflect.ValueOf(c).Elem()
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		fn(field{name: sf.Tag.Get("name"), def: sf.Tag.Get("def"), help: sf.Tag.Get("help"), v: v.Field(i)})
	}
}

// checkCIDRs checks trusted-proxies: comma-separated addresses or CIDRs.
func checkCIDRs(s string) error {
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if _, err := netip.ParsePrefix(f); err == nil {
			continue
		}
		if _, err := netip.ParseAddr(f); err != nil {
			return fmt.Errorf("trusted-proxies: %q is neither an address nor a CIDR", f)
		}
	}
	return nil
}

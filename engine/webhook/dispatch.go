package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Delivery is one pending notification: the job it is about, where it
// goes, how many attempts were made and when the first was due.
type Delivery struct {
	JobID    string
	URL      string
	Attempts int
	FirstAt  time.Time
}

// ErrGone is returned by Store.Payload when the job no longer exists.
var ErrGone = errors.New("webhook: job gone")

// Store keeps the pending deliveries durably (the job log) and renders
// their payloads. Its methods are safe for concurrent use.
type Store interface {
	// Due lists the deliveries due at or before now, and how many are
	// pending in all.
	Due(now time.Time) (due []Delivery, pending int, err error)
	// Payload is the body to send for a job and the key to sign it with.
	Payload(jobID string) (body, secret []byte, err error)
	// Delivered removes a delivery that was accepted, Dropped one given
	// up on; Retry stores the attempts made and when to try again.
	Delivered(jobID string) error
	Dropped(jobID string) error
	Retry(jobID string, attempts int, next time.Time) error
}

// Options configure a Dispatcher.
type Options struct {
	Workers   int           // attempts in flight at once
	Timeout   time.Duration // per attempt
	RetryBase time.Duration // first retry delay; doubles per attempt
	RetryFor  time.Duration // give up this long after the first attempt
	// Poll is how often the store is scanned for due deliveries; 0 means
	// min(1s, RetryBase/4), at least 10ms.
	Poll time.Duration
	// Registerer takes the dispatcher's metrics; nil keeps them
	// unregistered.
	Registerer prometheus.Registerer
}

// maxRetryDelay caps the exponential backoff.
const maxRetryDelay = time.Hour

// Dispatcher sends due deliveries. It runs beside the pipeline with its
// own bounded workers and per-attempt timeout, so a slow or dead receiver
// only ever holds a webhook worker.
type Dispatcher struct {
	store   Store
	opts    Options
	metrics *dispatchMetrics
	log     *slog.Logger
	client  *http.Client

	sem      chan struct{}
	mu       sync.Mutex
	inFlight map[string]bool
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
	now      func() time.Time
}

// New builds a dispatcher that dials only addresses allow permits, never
// through a proxy, and does not follow redirects.
func New(store Store, allow *AllowList, o Options, log *slog.Logger) (*Dispatcher, error) {
	m, err := newDispatchMetrics(o.Registerer)
	if err != nil {
		return nil, fmt.Errorf("webhook: metrics: %w", err)
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Poll <= 0 {
		o.Poll = max(min(time.Second, o.RetryBase/4), 10*time.Millisecond)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	tr := &http.Transport{
		Proxy:               nil, // a proxy would dial for us, past the allow-list
		DialContext:         allow.DialContext,
		TLSHandshakeTimeout: o.Timeout,
		MaxIdleConnsPerHost: 2,
		IdleConnTimeout:     30 * time.Second,
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Dispatcher{
		store: store, opts: o, log: log, metrics: m,
		client: &http.Client{Transport: tr, Timeout: o.Timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}},
		sem: make(chan struct{}, o.Workers), inFlight: map[string]bool{},
		ctx: ctx, cancel: cancel, now: time.Now,
	}
	return d, nil
}

// Start runs the poller until Close.
func (d *Dispatcher) Start() {
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		t := time.NewTicker(d.opts.Poll)
		defer t.Stop()
		for {
			d.poll()
			select {
			case <-d.ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
}

// Close stops polling and cancels attempts in flight; their deliveries
// stay in the store and are sent after the next start.
func (d *Dispatcher) Close() {
	d.cancel()
	d.wg.Wait()
	d.client.CloseIdleConnections()
}

// poll hands due deliveries not already in flight to free workers. When
// every worker is busy it stops: the rest stay due for the next poll.
func (d *Dispatcher) poll() {
	due, pending, err := d.store.Due(d.now())
	if err != nil {
		d.log.Error("webhook: reading due deliveries", "err", err)
		return
	}
	d.metrics.pending.Set(float64(pending))
	for _, dl := range due {
		d.mu.Lock()
		busy := d.inFlight[dl.JobID]
		d.mu.Unlock()
		if busy {
			continue
		}
		select {
		case d.sem <- struct{}{}:
		default:
			return
		case <-d.ctx.Done():
			return
		}
		d.mu.Lock()
		d.inFlight[dl.JobID] = true
		d.mu.Unlock()
		d.wg.Add(1)
		go func(dl Delivery) {
			defer d.wg.Done()
			defer func() {
				d.mu.Lock()
				delete(d.inFlight, dl.JobID)
				d.mu.Unlock()
				<-d.sem
			}()
			d.attempt(dl)
		}(dl)
	}
}

// attempt sends one delivery and records its outcome.
func (d *Dispatcher) attempt(dl Delivery) {
	body, secret, err := d.store.Payload(dl.JobID)
	if errors.Is(err, ErrGone) {
		d.record(d.store.Dropped(dl.JobID), dl)
		return
	}
	if err != nil {
		d.log.Error("webhook: payload", "job", dl.JobID, "err", err)
		return // stays due; the next poll tries again
	}
	start := d.now()
	err = d.send(dl, body, secret)
	d.metrics.duration.Observe(time.Since(start).Seconds())
	if d.ctx.Err() != nil {
		return // shutting down: the delivery stays due for the next start
	}
	if err == nil {
		d.metrics.attempts.WithLabelValues("delivered").Inc()
		d.log.Info("webhook delivered", "job", dl.JobID, "attempt", dl.Attempts+1)
		d.record(d.store.Delivered(dl.JobID), dl)
		return
	}
	outcome := "failed"
	if errors.Is(err, ErrRefused) {
		outcome = "refused"
	}
	d.metrics.attempts.WithLabelValues(outcome).Inc()
	attempts := dl.Attempts + 1
	now := d.now()
	if now.Sub(dl.FirstAt) >= d.opts.RetryFor {
		d.metrics.dropped.Inc()
		d.log.Warn("webhook dropped", "job", dl.JobID, "attempts", attempts, "failure", failure(err))
		d.record(d.store.Dropped(dl.JobID), dl)
		return
	}
	next := now.Add(d.backoff(attempts))
	d.log.Info("webhook attempt failed", "job", dl.JobID, "attempt", attempts, "outcome", outcome, "failure", failure(err), "retry_at", next)
	d.record(d.store.Retry(dl.JobID, attempts, next), dl)
}

// failure names the kind of a failed attempt for the log, never its
// text. Callback URLs may hold tokens and their hosts are the caller's
// business, so neither goes into logs, and the errors of a delivery carry
// them: *url.Error prints the URL, *net.DNSError the host name,
// *net.OpError the address and port, x509.HostnameError the names the
// certificate is valid for.
func failure(err error) string {
	var (
		st      statusError
		dnsErr  *net.DNSError
		certErr *tls.CertificateVerificationError
		alert   tls.AlertError
		record  tls.RecordHeaderError
		host    x509.HostnameError
		unknown x509.UnknownAuthorityError
		invalid x509.CertificateInvalidError
		ne      net.Error
	)
	switch {
	case errors.As(err, &st):
		return "status " + strconv.Itoa(st.code)
	case errors.Is(err, ErrRefused):
		return "not allowed" // no address permitted by webhook-allow-hosts
	case errors.As(err, &dnsErr):
		return "dns"
	case errors.As(err, &certErr), errors.As(err, &alert), errors.As(err, &record),
		errors.As(err, &host), errors.As(err, &unknown), errors.As(err, &invalid):
		return "tls"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "unreachable"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.Is(err, errBadURL):
		return "bad url"
	case strings.Contains(err.Error(), "tls:"):
		return "tls" // crypto/tls's own errors are mostly plain strings
	}
	return "other"
}

// statusError is a receiver's answer other than 2xx.
type statusError struct{ code int }

func (e statusError) Error() string { return "webhook: receiver answered " + strconv.Itoa(e.code) }

// errBadURL: a stored callback URL that no longer parses.
var errBadURL = errors.New("webhook: bad callback URL")

func (d *Dispatcher) record(err error, dl Delivery) {
	if err != nil {
		d.log.Error("webhook: recording outcome", "job", dl.JobID, "err", err)
	}
}

// backoff is the delay after the n-th failed attempt: RetryBase doubled
// n-1 times, at most maxRetryDelay, plus up to 50% jitter so receivers
// that come back are not hit by every sender at once.
func (d *Dispatcher) backoff(n int) time.Duration {
	delay := d.opts.RetryBase
	for i := 1; i < n && delay < maxRetryDelay; i++ {
		delay *= 2
	}
	delay = min(delay, maxRetryDelay)
	return delay + time.Duration(rand.Int64N(int64(delay)/2+1))
}

// send POSTs body, signed, and wants a 2xx answer.
func (d *Dispatcher) send(dl Delivery, body, secret []byte) error {
	ctx, cancel := context.WithTimeout(d.ctx, d.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, dl.URL, bytes.NewReader(body))
	if err != nil {
		return errBadURL // err would echo the URL
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "redactd-webhook")
	req.Header.Set("X-Redactd-Delivery", dl.JobID)
	req.Header.Set(SignatureHeader, Sign(secret, d.now(), body))
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return statusError{resp.StatusCode}
	}
	return nil
}

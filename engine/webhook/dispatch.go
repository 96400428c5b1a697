package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sync"
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
		d.log.Warn("webhook dropped", "job", dl.JobID, "attempts", attempts, "err", cause(err))
		d.record(d.store.Dropped(dl.JobID), dl)
		return
	}
	next := now.Add(d.backoff(attempts))
	d.log.Info("webhook attempt failed", "job", dl.JobID, "attempt", attempts, "outcome", outcome, "err", cause(err), "retry_at", next)
	d.record(d.store.Retry(dl.JobID, attempts, next), dl)
}

// cause is err without the request URL net/http puts into it: callback
// URLs may hold tokens and never go into logs.
func cause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

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
		return err
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
		return fmt.Errorf("webhook: receiver answered %d", resp.StatusCode)
	}
	return nil
}

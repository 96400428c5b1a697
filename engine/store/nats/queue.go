package natsstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/engine/store"
)

// itemHeader carries an item's id on its message.
const itemHeader = "Redactd-Item"

// fetchWait bounds one pull request, so Lease notices its context ending
// and a consumer that stopped answering (see watchdog) within seconds.
const fetchWait = 2 * time.Second

// Queue is store.Queue on a WorkQueue stream, PREFIX-work, with one
// durable pull consumer per pool (PREFIX-<pool>, filtered on
// PREFIX.work.<pool>), explicit acks and AckWait = LeaseTime. A worker
// calls Extend (InProgress) while it works, so a dead worker's item is
// delivered again one AckWait after its last sign of life.
//
// JetStream alone does not fence a late ack: an ack from a delivery whose
// AckWait ran out still removes the message, even while the next holder
// works on it. So each delivery is registered in the KV bucket
// PREFIX-leases under <pool>.<stream sequence> with its attempt number,
// by compare-and-set; Ack, Nack and Extend first check (Ack and Nack by
// compare-and-set) that the record is still theirs, and fail with
// store.ErrStaleLease otherwise. Ack marks the record done before it
// acks the message, so a delivery that races the ack finds it done and
// only acks.
//
// The attempt number is counted in that record, not taken from the
// server's delivery count, which restarts when a consumer is re-created.
// For the same reason exhaustion is decided here: the consumer has no
// MaxDeliver (a JetStream work queue keeps a message that ran out of
// deliveries forever, and nobody would mark its document failed); past
// MaxAttempts a delivery comes flagged Exhausted, and its Ack removes it.
type Queue struct {
	js          jetstream.JetStream
	o           Options
	stream      string
	leases      *bucket
	mu          sync.Mutex
	consumers   map[string]jetstream.Consumer
	recreations int // consumers re-created by the watchdog, for tests and metrics
}

var _ store.Queue = (*Queue)(nil)

// OpenQueue creates or binds the work stream, its consumers and the
// lease-fence bucket.
func OpenQueue(ctx context.Context, js jetstream.JetStream, o Options) (*Queue, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	q := &Queue{js: js, o: o, stream: o.Prefix + "-work", consumers: map[string]jetstream.Consumer{}}
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:      q.stream,
		Subjects:  []string{o.Prefix + ".work.*"},
		Retention: jetstream.WorkQueuePolicy,
		Storage:   o.storage(),
		Replicas:  o.Replicas,
		// No dedupe window: an id enqueued again after its ack (a
		// re-run) must be delivered, and the fences make duplicates safe.
		Duplicates: 0,
	})
	if err != nil {
		return nil, fmt.Errorf("natsstore: stream %s: %w", q.stream, err)
	}
	if q.leases, err = kvBucket(ctx, js, o, "leases"); err != nil {
		return nil, err
	}
	for _, p := range o.Pools {
		if _, err := q.consumer(ctx, p, true); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func (q *Queue) subject(pool string) string { return q.o.Prefix + ".work." + pool }

// consumer returns pool's consumer, creating (or re-creating) it when
// fresh is set.
func (q *Queue) consumer(ctx context.Context, pool string, fresh bool) (jetstream.Consumer, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if c := q.consumers[pool]; c != nil && !fresh {
		return c, nil
	}
	c, err := q.js.CreateOrUpdateConsumer(ctx, q.stream, jetstream.ConsumerConfig{
		Durable:       q.o.Prefix + "-" + pool,
		FilterSubject: q.subject(pool),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       q.o.LeaseTime,
		MaxDeliver:    -1,
		Replicas:      q.o.Replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("natsstore: consumer %s: %w", pool, err)
	}
	q.consumers[pool] = c
	return c, nil
}

func (q *Queue) checkPool(pool string) error {
	if !slices.Contains(q.o.Pools, pool) {
		return fmt.Errorf("natsstore: unknown pool %q", pool)
	}
	return nil
}

// Enqueue implements store.Queue.
func (q *Queue) Enqueue(ctx context.Context, pool, id string, payload []byte) error {
	defer q.o.Metrics.since("queue_enqueue", time.Now())
	if err := q.checkPool(pool); err != nil {
		return err
	}
	if id == "" {
		return fmt.Errorf("natsstore: enqueue: empty id")
	}
	m := &nats.Msg{Subject: q.subject(pool), Header: nats.Header{itemHeader: []string{id}}, Data: payload}
	if _, err := q.js.PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("natsstore: enqueue: %w", err)
	}
	return nil
}

// fence is the record PREFIX-leases holds for one queued message.
type fence struct {
	Attempt int  `json:"attempt"`
	Done    bool `json:"done,omitempty"`
}

// Lease implements store.Queue. It pulls in requests of at most
// fetchWait, so it returns within about that long after ctx ends.
func (q *Queue) Lease(ctx context.Context, pool string) (store.Lease, error) {
	if err := q.checkPool(pool); err != nil {
		return nil, err
	}
	failures := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c, err := q.consumer(ctx, pool, false)
		if err != nil {
			return nil, err
		}
		wait := fetchWait
		if dl, ok := ctx.Deadline(); ok {
			wait = min(wait, max(time.Until(dl), 10*time.Millisecond))
		}
		msg, err := c.Next(jetstream.FetchMaxWait(wait))
		if errors.Is(err, nats.ErrTimeout) {
			failures = 0
			continue
		}
		if err != nil {
			if err := q.watchdog(ctx, pool, err, &failures); err != nil {
				return nil, err
			}
			continue
		}
		failures = 0
		start := time.Now()
		l, err := q.register(ctx, pool, msg)
		q.o.Metrics.since("queue_register", start)
		if err != nil {
			return nil, err
		}
		if l != nil {
			return l, nil
		}
	}
}

// watchdog handles a pull that failed other than by timing out. A pull
// consumer can stop answering after a leader change or be deleted by an
// operator; re-creating it (CreateOrUpdateConsumer is idempotent, the
// durable's state lives in the cluster) resumes delivery. Repeated
// failures back off up to a second.
func (q *Queue) watchdog(ctx context.Context, pool string, err error, failures *int) error {
	*failures++
	if *failures > 1 || errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) ||
		errors.Is(err, jetstream.ErrNoHeartbeat) {
		if _, cerr := q.consumer(ctx, pool, true); cerr == nil {
			q.mu.Lock()
			q.recreations++
			q.mu.Unlock()
			q.o.Metrics.ConsumerRecreations.Inc()
		}
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(min(time.Duration(*failures)*100*time.Millisecond, time.Second)):
		return nil
	}
}

// register records a delivery in the fence bucket and returns its lease,
// or nil when the message needs no work: it was done already (its ack
// was lost), or another delivery of it holds the fence.
func (q *Queue) register(ctx context.Context, pool string, msg jetstream.Msg) (*lease, error) {
	meta, err := msg.Metadata()
	if err != nil {
		msg.Term() // not a JetStream delivery: cannot be fenced
		return nil, nil
	}
	key := pool + "." + strconv.FormatUint(meta.Sequence.Stream, 10)
	// Most deliveries are first ones: try to create the fence at attempt
	// 1 (one round trip) and read it only if it exists.
	f := fence{Attempt: 1}
	v, _ := json.Marshal(f)
	rev, err := create(ctx, q.leases, key, v)
	if errors.Is(err, store.ErrConflict) {
		rev, f, err = q.redelivered(ctx, key, msg)
	}
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
		return nil, nil // another delivery of this message got there first
	}
	if err != nil || rev == 0 {
		return nil, err
	}
	l := &lease{q: q, msg: msg, key: key, f: f, rev: rev, id: msg.Headers().Get(itemHeader)}
	if f.Attempt > 1 {
		q.o.Metrics.Redeliveries.Inc()
	}
	if l.Exhausted() {
		q.o.Metrics.Exhausted.Inc()
	}
	return l, nil
}

// redelivered advances the fence of a message delivered before: one
// attempt more, by compare-and-set. A fence marked done means the ack was
// lost; the message is acked now and rev 0 returned.
func (q *Queue) redelivered(ctx context.Context, key string, msg jetstream.Msg) (uint64, fence, error) {
	var f fence
	r, err := get(ctx, q.leases, key)
	if err != nil {
		return 0, f, err
	}
	if err := json.Unmarshal(r.Value, &f); err != nil {
		return 0, f, fmt.Errorf("natsstore: fence %s: %w", key, err)
	}
	if f.Done {
		if msg.DoubleAck(ctx) == nil {
			q.leases.purge(ctx, key)
		}
		return 0, f, nil
	}
	f.Attempt++
	v, _ := json.Marshal(f)
	rev, err := update(ctx, q.leases, key, v, r.Revision)
	return rev, f, err
}

type lease struct {
	q       *Queue
	msg     jetstream.Msg
	id      string
	key     string // in PREFIX-leases
	f       fence
	rev     uint64 // of our fence record
	mu      sync.Mutex
	settled bool
}

func (l *lease) ID() string      { return l.id }
func (l *lease) Payload() []byte { return l.msg.Data() }
func (l *lease) Attempt() int    { return l.f.Attempt }
func (l *lease) Exhausted() bool { return l.f.Attempt > l.q.o.MaxAttempts }

func (l *lease) stale() error {
	l.q.o.Metrics.StaleLeases.Inc()
	return fmt.Errorf("%w: %s attempt %d", store.ErrStaleLease, l.id, l.f.Attempt)
}

// Extend implements store.Lease.
func (l *lease) Extend(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.settled {
		return l.stale()
	}
	r, err := get(ctx, l.q.leases, l.key)
	if errors.Is(err, store.ErrNotFound) || err == nil && r.Revision != l.rev {
		return l.stale()
	}
	if err != nil {
		return err
	}
	return l.msg.InProgress()
}

// Ack implements store.Lease: fence first (done, by compare-and-set on
// our revision), then the ack, confirmed by the server, then the fence
// record goes. If the ack is lost the record stays done, and the
// redelivery is acked on sight by register.
func (l *lease) Ack(ctx context.Context) error {
	defer l.q.o.Metrics.since("queue_ack", time.Now())
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.settled {
		return l.stale()
	}
	f := l.f
	f.Done = true
	v, _ := json.Marshal(f)
	if _, err := update(ctx, l.q.leases, l.key, v, l.rev); err != nil {
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			l.settled = true
			return l.stale()
		}
		return err
	}
	l.settled = true
	if err := l.msg.DoubleAck(ctx); err != nil {
		return nil // done is recorded; the next delivery only acks
	}
	l.q.leases.purge(ctx, l.key)
	return nil
}

// Nack implements store.Lease. The fence record is rewritten (same
// attempt, new revision) by compare-and-set, so a Nack and a concurrent
// Ack by two holders cannot both succeed.
func (l *lease) Nack(ctx context.Context, delay time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.settled {
		return l.stale()
	}
	v, _ := json.Marshal(l.f)
	if _, err := update(ctx, l.q.leases, l.key, v, l.rev); err != nil {
		if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
			l.settled = true
			return l.stale()
		}
		return err
	}
	l.settled = true
	if delay > 0 {
		return l.msg.NakWithDelay(delay)
	}
	return l.msg.Nak()
}

// Recreations reports how many times the watchdog re-created a consumer.
func (q *Queue) Recreations() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.recreations
}

// Pending returns the number of messages in the work stream: items
// waiting or leased. An empty stream after a run means nothing is stuck.
func (q *Queue) Pending(ctx context.Context) (uint64, error) {
	s, err := q.js.Stream(ctx, q.stream)
	if err != nil {
		return 0, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}

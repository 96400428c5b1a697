package natsstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"

	"github.com/redactd/redactd/engine/store"
)

// Blobs is store.Blobs on JetStream: the content in the Object Store
// PREFIX-blobs, split into segments of at most SegmentSize (64 MiB), and
// one manifest per blob in the KV bucket PREFIX-blobmeta.
//
// Segments bound what one Object Store put holds in flight and what a
// failure throws away; a multi-gigabyte original is many bounded puts.
// Each Put writes its segments under a fresh generation name, then the
// manifest (one KV write, atomic), then deletes the previous generation:
// a reader sees the old blob or the new one whole, and a crash leaves at
// most unreferenced segments, which SweepOrphans removes.
//
// Known cost: the Object Store keeps a small "deleted" record for every
// deleted segment name (its API has no marker TTL), and segment names are
// unique per Put, so the bucket's message count grows by one per deleted
// segment until the bucket is compacted by an operator.
type Blobs struct {
	m   *Metrics
	obs jetstream.ObjectStore
	kv  *bucket
	seg int64

	// Segments a failed or replacing Put leaves behind are deleted in
	// the background (dropLater), under ctx, which Close cancels.
	ctx      context.Context
	stop     context.CancelFunc
	dropping sync.WaitGroup
}

var _ store.Blobs = (*Blobs)(nil)

// manifest is the KV record naming a blob's segments.
type manifest struct {
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Gen      string `json:"gen"`
	Segments int    `json:"segments"`
}

// OpenBlobs creates or binds the object store and the manifest bucket.
func OpenBlobs(ctx context.Context, js jetstream.JetStream, o Options) (*Blobs, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	bucket := o.Prefix + "-blobs"
	_, err := js.ObjectStore(ctx, bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		_, err = js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: bucket, Replicas: o.Replicas, Storage: o.storage()})
		if errors.Is(err, jetstream.ErrBucketExists) {
			err = nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("natsstore: object store %s: %w", bucket, err)
	}
	if err := leaderReads(ctx, js, "OBJ_"+bucket); err != nil {
		return nil, err
	}
	obs, err := js.ObjectStore(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("natsstore: object store %s: %w", bucket, err)
	}
	kv, err := kvBucket(ctx, js, o, "blobmeta")
	if err != nil {
		return nil, err
	}
	b := &Blobs{m: o.Metrics, obs: obs, kv: kv, seg: o.SegmentSize}
	b.ctx, b.stop = context.WithCancel(context.Background())
	return b, nil
}

// Close abandons the segment deletions still running in the background
// and waits for them to return. The segments they leave are orphans,
// which SweepOrphans removes. Call it before closing the connection.
func (b *Blobs) Close() {
	b.stop()
	b.dropping.Wait()
}

// metaKey maps a blob key ('/'-separated, dots allowed) to a KV key.
// Base64url's alphabet is within the KV key alphabet and has no '.', so
// any blob key fits in one token.
func metaKey(key string) string { return "b." + base64.RawURLEncoding.EncodeToString([]byte(key)) }

func segName(key, gen string, i int) string { return key + "#" + gen + "/" + strconv.Itoa(i) }

// Put implements store.Blobs.
func (b *Blobs) Put(ctx context.Context, key string, r io.Reader) (store.BlobInfo, error) {
	defer b.m.since("blobs_put", time.Now())
	if err := store.CheckBlobKey(key); err != nil {
		return store.BlobInfo{}, err
	}
	m := manifest{Gen: nuid.Next()}
	h := sha256.New()
	tr := io.TeeReader(r, h)
	left := remaining(r)
	for {
		lr := &io.LimitedReader{R: tr, N: b.seg}
		sctx, cancel := context.WithTimeout(ctx, segmentWait(b.seg, left))
		_, err := b.obs.Put(sctx, jetstream.ObjectMeta{Name: segName(key, m.Gen, m.Segments)}, lr)
		cancel()
		if err != nil {
			b.dropLater(key, m.Gen, m.Segments+1)
			return store.BlobInfo{}, fmt.Errorf("natsstore: put %s: %w", key, err)
		}
		n := b.seg - lr.N
		if left >= 0 {
			left -= n
		}
		m.Size += n
		m.Segments++
		if n < b.seg {
			break
		}
	}
	m.SHA256 = hex.EncodeToString(h.Sum(nil))
	old, _, err := b.manifest(ctx, key)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		b.dropLater(key, m.Gen, m.Segments)
		return store.BlobInfo{}, err
	}
	v, _ := json.Marshal(m)
	// The manifest's write, like its read, is one short request to the
	// meta bucket, bounded by one try (see manifest).
	pctx, cancel := context.WithTimeout(ctx, store.DefaultRetryTry)
	defer cancel()
	if _, err := b.kv.Put(pctx, metaKey(key), v); err != nil {
		b.dropLater(key, m.Gen, m.Segments)
		return store.BlobInfo{}, fmt.Errorf("natsstore: put %s: %w", key, err)
	}
	if old.Gen != "" {
		b.dropLater(key, old.Gen, old.Segments)
	}
	return store.BlobInfo{Key: key, Size: m.Size, SHA256: m.SHA256}, nil
}

// minPutRate is the slowest a segment's bytes are expected to reach a
// replicated stream (bytes a second): a 64 MiB segment through an R3
// cluster that syncs every write, on a loaded 2-core test machine under
// the race detector, took several seconds.
const minPutRate = 4 << 20

// segmentWait bounds one segment's put: a short request's time
// (store.DefaultRetryTry) and its bytes at minPutRate, for a segment of
// at most seg bytes of which left remain in the blob (-1: unknown).
//
// A segment's put is many requests (the old object's info, a publish a
// chunk, their acks), and nats.go waits for them until its context's
// deadline, or 5 s each without one. A put begun as a stream lost its
// leader then waited past store.Retry's budget, and the job creation
// answered 503 though the election had ended (TestClusterElection); a
// put bounded by this wait fails in time to be tried again, while a
// large one still has the time its bytes need.
func segmentWait(seg, left int64) time.Duration {
	n := seg
	if left >= 0 {
		n = min(n, left)
	}
	return store.DefaultRetryTry + time.Duration(n)*time.Second/minPutRate
}

// remaining returns how many bytes r has left to read when it can tell
// (a bytes.Reader, a file), or -1.
func remaining(r io.Reader) int64 {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len())
	case io.Seeker:
		cur, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return -1
		}
		end, err := r.Seek(0, io.SeekEnd)
		if _, serr := r.Seek(cur, io.SeekStart); err != nil || serr != nil {
			return -1
		}
		return end - cur
	}
	return -1
}

// dropWait bounds one background deletion of a generation's segments.
const dropWait = 30 * time.Second

// dropLater deletes a generation's segments in the background, so that
// a Put returns as soon as it has failed (or has replaced the blob)
// instead of after its clean-up: a Put whose manifest read failed in a
// leader election waited out the cleanup's 30 s before store.Retry could
// try again, and the creation answered 503 after 33 s, though the new
// leaders stood after 7 s (TestClusterElection).
func (b *Blobs) dropLater(key, gen string, n int) {
	b.dropping.Go(func() {
		ctx, cancel := context.WithTimeout(b.ctx, dropWait)
		defer cancel()
		b.dropSegments(ctx, key, gen, n)
	})
}

// dropSegments deletes a generation's segments, best effort: a segment
// left behind is unreferenced and costs only space.
func (b *Blobs) dropSegments(ctx context.Context, key, gen string, n int) {
	for i := range n {
		b.obs.Delete(ctx, segName(key, gen, i))
	}
}

func (b *Blobs) manifest(ctx context.Context, key string) (manifest, uint64, error) {
	var m manifest
	// One short request to the meta bucket, bounded by one try even
	// inside a streaming call (Put, Open) that the store's retry bounds
	// only by the caller's deadline: a bucket whose leader was just lost
	// then fails the call in time for the retry to try it again once a
	// new leader is elected (TestClusterElection: a Put's manifest read
	// waited out a request's whole 10 s on the first try).
	ctx, cancel := context.WithTimeout(ctx, store.DefaultRetryTry)
	defer cancel()
	r, err := get(ctx, b.kv, metaKey(key))
	if errors.Is(err, store.ErrNotFound) {
		return m, 0, &store.NotFoundError{Key: key}
	}
	if err != nil {
		return m, 0, err
	}
	if err := json.Unmarshal(r.Value, &m); err != nil {
		return m, 0, fmt.Errorf("natsstore: manifest of %s: %w", key, err)
	}
	return m, r.Revision, nil
}

// Stat implements store.Blobs.
func (b *Blobs) Stat(ctx context.Context, key string) (store.BlobInfo, error) {
	if err := store.CheckBlobKey(key); err != nil {
		return store.BlobInfo{}, err
	}
	m, _, err := b.manifest(ctx, key)
	if err != nil {
		return store.BlobInfo{}, err
	}
	return store.BlobInfo{Key: key, Size: m.Size, SHA256: m.SHA256}, nil
}

// Open implements store.Blobs. The segments are fetched one at a time as
// the caller reads; ctx must stay live until the reader is closed.
func (b *Blobs) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	if err := store.CheckBlobKey(key); err != nil {
		return nil, err
	}
	m, _, err := b.manifest(ctx, key)
	if err != nil {
		return nil, err
	}
	return &segReader{ctx: ctx, b: b, key: key, m: m}, nil
}

// segReader reads a blob's segments in order. Object Store reads go
// through an ordered consumer, which the cluster may place on a replica
// that lags behind the write: the read then ends early and nats.go
// reports a digest mismatch (seen on the R3 cluster). A segment read that
// fails is therefore opened again and the bytes already returned are
// skipped, a few times, before the error reaches the caller; nats.go's
// digest check still guards every segment's content.
type segReader struct {
	ctx   context.Context
	b     *Blobs
	key   string
	m     manifest
	next  int
	cur   jetstream.ObjectResult
	pos   int64 // bytes of the current segment returned so far
	tries int
}

// segRetries bounds the re-reads of one segment.
const segRetries = 5

func (s *segReader) Read(p []byte) (int, error) {
	for {
		if s.cur == nil {
			if s.next == s.m.Segments {
				return 0, io.EOF
			}
			if err := s.open(); err != nil {
				return 0, err
			}
		}
		n, err := s.cur.Read(p)
		s.pos += int64(n)
		switch {
		case err == io.EOF:
			s.cur.Close()
			s.cur, s.pos, s.tries = nil, 0, 0
			s.next++
			if n > 0 {
				return n, nil
			}
			continue
		case err != nil && n == 0 && s.tries < segRetries && s.ctx.Err() == nil:
			s.cur.Close()
			s.cur = nil
			s.tries++
			time.Sleep(time.Duration(s.tries) * 50 * time.Millisecond)
			continue
		}
		return n, err
	}
}

// open opens the current segment and skips what was returned of it.
func (s *segReader) open() error {
	name := segName(s.key, s.m.Gen, s.next)
	for {
		r, err := s.b.obs.Get(s.ctx, name)
		if err == nil {
			if _, err = io.CopyN(io.Discard, r, s.pos); err == nil {
				s.cur = r
				return nil
			}
			r.Close()
		}
		if s.tries >= segRetries || s.ctx.Err() != nil {
			// Replaced or deleted under the reader, or unreachable.
			return fmt.Errorf("natsstore: read %s segment %d: %w", s.key, s.next, err)
		}
		s.tries++
		time.Sleep(time.Duration(s.tries) * 50 * time.Millisecond)
	}
}

func (s *segReader) Close() error {
	if s.cur != nil {
		return s.cur.Close()
	}
	return nil
}

// Delete implements store.Blobs: the manifest first, so the blob is gone
// at once for every reader, then its segments.
func (b *Blobs) Delete(ctx context.Context, key string) error {
	if err := store.CheckBlobKey(key); err != nil {
		return err
	}
	m, _, err := b.manifest(ctx, key)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := b.kv.purge(ctx, metaKey(key)); err != nil {
		return fmt.Errorf("natsstore: delete %s: %w", key, err)
	}
	// The segments are unreferenced now; delete them even if the
	// caller's context is what ends, briefly.
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dropWait)
	defer cancel()
	b.dropSegments(dctx, key, m.Gen, m.Segments)
	return nil
}

var _ store.BlobSweeper = (*Blobs)(nil)

// Keys implements store.BlobSweeper: one pass over the manifest bucket's
// latest entries, without their values.
func (b *Blobs) Keys(ctx context.Context, fn func(key string, stored time.Time) bool) error {
	w, err := b.kv.WatchAll(ctx, jetstream.IgnoreDeletes(), jetstream.MetaOnly())
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case ent, ok := <-w.Updates():
			if !ok {
				return ctx.Err()
			}
			if ent == nil {
				return nil // the initial values are done
			}
			raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(ent.Key(), "b."))
			if err != nil || !strings.HasPrefix(ent.Key(), "b.") {
				continue
			}
			if !fn(string(raw), ent.Created()) {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// SweepPartial implements store.BlobSweeper.
func (b *Blobs) SweepPartial(ctx context.Context, age time.Duration) (int, error) {
	return b.SweepOrphans(ctx, age)
}

// SweepOrphans deletes segments that no manifest names and that are
// older than age: the leftovers of Puts that crashed before their
// manifest was written, or of replacements that crashed before deleting
// the old generation. age must exceed the longest Put, since a Put in
// progress on another node has no manifest yet.
func (b *Blobs) SweepOrphans(ctx context.Context, age time.Duration) (int, error) {
	infos, err := b.obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	cutoff := time.Now().Add(-age)
	n := 0
	for _, info := range infos {
		if info.ModTime.After(cutoff) {
			continue
		}
		hash := strings.LastIndexByte(info.Name, '#')
		slash := strings.LastIndexByte(info.Name, '/')
		if hash < 0 || slash < hash {
			continue
		}
		key, gen := info.Name[:hash], info.Name[hash+1:slash]
		m, _, err := b.manifest(ctx, key)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return n, err
		}
		if m.Gen == gen {
			continue
		}
		if err := b.obs.Delete(ctx, info.Name); err == nil {
			n++
		}
	}
	return n, nil
}

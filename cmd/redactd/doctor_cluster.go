package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// clusterStreams are the streams engine/store/nats keeps under a prefix:
// its KV buckets and Object Store are streams too.
func clusterStreams(prefix string) []string {
	return []string{
		"KV_" + prefix + "-docs", "KV_" + prefix + "-idem", "KV_" + prefix + "-ledger",
		"KV_" + prefix + "-leases", "KV_" + prefix + "-blobmeta", "KV_" + prefix + "-roles",
		"OBJ_" + prefix + "-blobs", prefix + "-work",
	}
}

// checkCluster checks a node of a cluster install (engine nats): the NATS
// servers answer with JetStream, every stream the node uses has a leader
// and its replicas are current, and the blob and scratch directories are
// writable. It only reads: nothing is created.
func (d *doctorRun) checkCluster() {
	nc, err := nats.Connect(d.cfg.NATSURL, nats.Name("redactd doctor"), nats.Timeout(10*time.Second))
	if err != nil {
		d.add(checkFail, "cluster", "cannot reach the NATS servers %s: %v", d.cfg.NATSURL, err)
		return
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		d.add(checkFail, "cluster", "%v", err)
		return
	}
	// Bounded: during a meta-leader election the request goes unanswered.
	ictx, cancel := context.WithTimeout(d.ctx, 10*time.Second)
	info, err := js.AccountInfo(ictx)
	cancel()
	if err != nil {
		d.add(checkFail, "cluster", "JetStream does not answer on %s: %v", nc.ConnectedUrlRedacted(), err)
		return
	}
	d.add(checkOK, "cluster", "connected to %s (%s), %d servers known; JetStream: %d streams, %s stored",
		nc.ConnectedServerName(), nc.ConnectedUrlRedacted(), len(nc.Servers()), info.Streams, humanBytes(int64(info.Store)))
	var missing, bad, degraded []string
	for _, name := range clusterStreams(d.cfg.NATSPrefix) {
		// Each stream its own bound: one whose leader is being elected
		// must not use up the others' time.
		ctx, cancel := context.WithTimeout(d.ctx, 5*time.Second)
		defer cancel()
		s, err := js.Stream(ctx, name)
		if errors.Is(err, jetstream.ErrStreamNotFound) {
			missing = append(missing, name)
			continue
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		si, err := s.Info(ctx)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", name, err))
			continue
		}
		if fatal, p := streamProblem(si, d.cfg.NATSReplicas); fatal {
			bad = append(bad, name+": "+p)
		} else if p != "" {
			degraded = append(degraded, name+": "+p)
		}
		if name == d.cfg.NATSPrefix+"-work" {
			d.add(checkOK, "cluster queue", "%d documents waiting or in flight", si.State.Msgs)
		}
	}
	switch {
	case len(bad) > 0:
		d.add(checkFail, "cluster streams", "%s", strings.Join(bad, "; "))
	case len(degraded) > 0:
		d.add(checkWarn, "cluster streams", "serving, with less redundancy than configured: %s", strings.Join(degraded, "; "))
	case len(missing) == len(clusterStreams("")):
		d.add(checkOK, "cluster streams", "none yet under prefix %q (the first serve creates them)", d.cfg.NATSPrefix)
	case len(missing) > 0:
		d.add(checkWarn, "cluster streams", "missing %s (serve creates them)", strings.Join(missing, ", "))
	default:
		d.add(checkOK, "cluster streams", "%d streams under prefix %q, each with a leader and %d current replicas", len(clusterStreams("")), d.cfg.NATSPrefix, d.cfg.NATSReplicas)
	}
	d.checkClusterFiles()
}

// checkClusterFiles checks where a node's files go: the shared blob
// directory (blob-store dir; the Object Store is one of the streams
// above), and the node's own scratch directory, where uploads are
// spooled and outputs rendered before they become blobs.
func (d *doctorRun) checkClusterFiles() {
	if d.cfg.BlobStore == "dir" {
		if err := writable(d.cfg.BlobDir); err != nil {
			d.add(checkFail, "blob directory", "%s (shared by the nodes): %v", d.cfg.BlobDir, err)
		} else {
			d.add(checkOK, "blob directory", "%s (shared by the nodes) is writable", d.cfg.BlobDir)
		}
	} else {
		d.add(checkOK, "blobs", "originals, outputs and review files in the Object Store %s-blobs", d.cfg.NATSPrefix)
	}
	dir := cmp.Or(d.cfg.FilesDir, filepath.Join(d.cfg.Data, "files"))
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		d.add(checkOK, "scratch directory", "%s does not exist yet (serve creates it)", dir)
	} else if err := writable(dir); err != nil {
		d.add(checkFail, "scratch directory", "%s: %v", dir, err)
	} else {
		d.add(checkOK, "scratch directory", "%s is writable", dir)
	}
}

// replicaSilence is how long a replica may go unheard before doctor
// reports it (a healthy one answers its leader several times a second).
const replicaSilence = 5 * time.Second

// streamProblem says what is wrong with a stream's replication. Fatal:
// no leader (the stream takes no writes), or fewer replicas than
// configured; not fatal: a replica offline, silent or behind (the stream
// serves from the others, with less redundancy).
func streamProblem(si *jetstream.StreamInfo, want int) (fatal bool, problem string) {
	if si.Config.Replicas < want {
		return true, fmt.Sprintf("%d replicas, want %d", si.Config.Replicas, want)
	}
	if si.Cluster == nil {
		return false, ""
	}
	if si.Cluster.Leader == "" {
		return true, "no leader (a quorum of servers is down?)"
	}
	for _, r := range si.Cluster.Replicas {
		switch {
		case r.Offline:
			return false, fmt.Sprintf("replica on %s is offline", r.Name)
		case r.Active > replicaSilence:
			return false, fmt.Sprintf("replica on %s not heard from for %v", r.Name, r.Active.Round(time.Second))
		case !r.Current:
			return false, fmt.Sprintf("replica on %s is behind (%d operations)", r.Name, r.Lag)
		}
	}
	return false, ""
}

// Package natskit starts real NATS JetStream servers inside a test
// process: one server, or a cluster of three on loopback with file
// storage and sync_interval: always, as the cluster engine runs in
// production. Nothing is mocked: the servers are nats-server itself
// (github.com/nats-io/nats-server/v2), reached over TCP.
//
// Who may import it: _test.go files and the bench, like every package
// under internal/testkit. The daemon never links it (internal/layers'
// TestLayering fails if it does); `redactd nats` starts its
// server from a configuration file instead.
package natskit

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/redactd/redactd/internal/testkit/ports"
)

// readyTimeout bounds how long a cluster may take to elect its JetStream
// meta leader. On a loaded 2-core machine three servers need a few
// seconds; more means something is wrong.
const readyTimeout = 30 * time.Second

// Cluster is a set of running servers.
type Cluster struct {
	t       testing.TB
	name    string
	dirs    []string
	routes  []int // cluster (route) port of each server
	servers []*server.Server
}

// Start runs n servers (1 or 3) and waits until JetStream answers on
// every one. The servers are shut down when the test ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	if n != 1 && n != 3 {
		t.Fatalf("natskit: %d servers; want 1 or 3", n)
	}
	c := &Cluster{t: t, name: "redactd-test", servers: make([]*server.Server, n), routes: make([]int, n)}
	base := t.TempDir()
	for i := range n {
		c.dirs = append(c.dirs, filepath.Join(base, "n"+strconv.Itoa(i+1)))
	}
	t.Cleanup(c.Shutdown)
	if n > 1 {
		// A clustered JetStream server refuses to start without routes,
		// so the route ports are fixed before the first server starts.
		routeBase := ports.Base(t, 5000, 5000, []int{0, 1, 2})
		for i := range n {
			c.routes[i] = routeBase + i
		}
	}
	for i := range n {
		c.servers[i] = c.start(i)
	}
	c.WaitReady()
	return c
}

// options builds server i's options: routes to every other server. A
// restarted server keeps its route port and store.
func (c *Cluster) options(i int) *server.Options {
	o := &server.Options{
		ServerName: fmt.Sprintf("n%d", i+1),
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		NoLog:      true,
		NoSigs:     true,
		JetStream:  true,
		StoreDir:   c.dirs[i],
		// sync_interval: always, as in deploy/cluster: every write is
		// fsynced before it is acknowledged.
		SyncAlways:         true,
		JetStreamMaxMemory: 64 << 20,
		JetStreamMaxStore:  4 << 30,
	}
	if len(c.servers) > 1 {
		o.Cluster = server.ClusterOpts{Name: c.name, Host: "127.0.0.1", Port: c.routes[i]}
		for j, p := range c.routes {
			if j != i {
				o.Routes = append(o.Routes, server.RoutesFromStr("nats://127.0.0.1:"+strconv.Itoa(p))...)
			}
		}
	}
	return o
}

func (c *Cluster) start(i int) *server.Server {
	c.t.Helper()
	s, err := server.NewServer(c.options(i))
	if err != nil {
		c.t.Fatalf("natskit: server %d: %v", i+1, err)
	}
	s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		s.Shutdown()
		c.t.Fatalf("natskit: server %d not ready", i+1)
	}
	return s
}

// WaitReady waits until JetStream answers an account-info request on
// every running server, that is until a meta leader is elected.
func (c *Cluster) WaitReady() {
	c.t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for i, s := range c.servers {
		if s == nil {
			continue
		}
		for {
			err := c.ping(s)
			if err == nil {
				break
			}
			if time.Now().After(deadline) {
				c.t.Fatalf("natskit: JetStream on server %d not ready after %v: %v", i+1, readyTimeout, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

func (c *Cluster) ping(s *server.Server) error {
	nc, err := nats.Connect(s.ClientURL(), nats.Timeout(2*time.Second))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err
}

// URLs returns the client URLs of the running servers, comma-separated,
// as nats.Connect takes them.
func (c *Cluster) URLs() string {
	var u []string
	for _, s := range c.servers {
		if s != nil {
			u = append(u, s.ClientURL())
		}
	}
	return strings.Join(u, ",")
}

// Connect returns a client connected to the cluster, closed when the
// test ends. It reconnects forever, so a test can stop a server under it.
func (c *Cluster) Connect() *nats.Conn {
	c.t.Helper()
	nc, err := nats.Connect(c.URLs(), nats.MaxReconnects(-1), nats.ReconnectWait(100*time.Millisecond))
	if err != nil {
		c.t.Fatalf("natskit: connect: %v", err)
	}
	c.t.Cleanup(nc.Close)
	return nc
}

// Stop shuts server i (from 0) down, as a kill would, keeping its
// store so Restart brings it back with its data.
func (c *Cluster) Stop(i int) {
	if s := c.servers[i]; s != nil {
		s.Shutdown()
		s.WaitForShutdown()
		c.servers[i] = nil
	}
}

// Index returns the index of the running server named name ("n1".."n3",
// as StreamInfo.Cluster.Leader names them), or -1.
func (c *Cluster) Index(name string) int {
	for i, s := range c.servers {
		if s != nil && s.Name() == name {
			return i
		}
	}
	return -1
}

// Restart starts a stopped server i again on its old ports and store.
func (c *Cluster) Restart(i int) {
	c.t.Helper()
	if c.servers[i] == nil {
		c.servers[i] = c.start(i)
	}
}

// Shutdown stops every server. It is safe to call more than once.
func (c *Cluster) Shutdown() {
	for i := range c.servers {
		c.Stop(i)
	}
}

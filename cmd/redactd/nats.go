package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// natsCmd runs the NATS JetStream server of a cluster install from a
// nats-server configuration file, so an air-gapped install needs no
// second download: the server is nats-server itself, linked from
// github.com/nats-io/nats-server/v2 (a version with sync_interval: always
// and the crash fixes Debian's 2.9 lacks).
//
//	redactd nats --config FILE            run the server (blocks)
//	redactd nats --config FILE --check    parse and check the file, then exit
//	redactd nats --wait URL[,URL...]      wait until JetStream answers
//
// The server handles its signals as nats-server does: SIGTERM and SIGINT
// stop it, SIGHUP reloads the configuration, SIGUSR2 enters lame-duck
// mode. See deploy/cluster for configurations and a local cluster script.
func natsCmd(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("nats", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config := fs.String("config", "", "nats-server configuration file")
	check := fs.Bool("check", false, "check the configuration file and exit")
	wait := fs.String("wait", "", "comma-separated server URLs: wait until JetStream answers, then exit")
	timeout := fs.Duration("timeout", 30*time.Second, "with --wait: how long to wait")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usagef("nats: %v", err)
	}
	if fs.NArg() > 0 {
		return usagef("nats: unexpected argument %q", fs.Arg(0))
	}
	switch {
	case *wait != "" && *config == "":
		return waitJetStream(*wait, *timeout)
	case *wait != "":
		return usagef("nats: --wait and --config exclude each other")
	case *config == "":
		return usagef("nats: --config FILE is required")
	}
	opts, err := natsOptions(*config)
	if err != nil {
		return err
	}
	if *check {
		return nil
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("nats: %w", err)
	}
	s.ConfigureLogger()
	if err := server.Run(s); err != nil {
		return fmt.Errorf("nats: %w", err)
	}
	if !s.ReadyForConnections(time.Minute) {
		s.Shutdown()
		return errors.New("nats: the server did not start listening within a minute")
	}
	s.WaitForShutdown()
	return nil
}

// natsOptions reads a configuration file and refuses one that would not
// keep the cluster engine's promises: JetStream must be on, and every
// write fsynced before it is acknowledged (sync_interval: always), or a
// power cut on a majority of servers can lose a document the API has
// accepted.
func natsOptions(path string) (*server.Options, error) {
	opts, err := server.ProcessConfigFile(path)
	if err != nil {
		return nil, fmt.Errorf("nats: %w", err)
	}
	if !opts.JetStream {
		return nil, fmt.Errorf("nats: %s: jetstream is not enabled", path)
	}
	if !opts.SyncAlways {
		return nil, fmt.Errorf("nats: %s: jetstream needs sync_interval: always (acknowledged writes must be on disk)", path)
	}
	return opts, nil
}

// waitJetStream waits until JetStream answers an account-info request
// through urls, that is until the cluster has a meta leader.
func waitJetStream(urls string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var last error
	for {
		last = pingJetStream(ctx, urls)
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("nats: JetStream at %s not ready after %v: %w", urls, timeout, last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func pingJetStream(ctx context.Context, urls string) error {
	nc, err := nats.Connect(urls, nats.Timeout(2*time.Second))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	// Without a meta leader a request goes unanswered: bound each one.
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	_, err = js.AccountInfo(ctx)
	return err
}

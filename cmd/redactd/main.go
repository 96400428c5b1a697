// Command redactd is the redaction appliance: the HTTP API server and its
// administration commands.
//
//	redactd serve [--config FILE] [settings...]     run the API server
//	redactd keys create --email E [--plan free|standard] [--pages N]
//	redactd keys list
//	redactd keys revoke ID
//	redactd keys webhook-secret --email E [--rotate]
//	redactd defaults set --email E [--categories JSON] [--include JSON] [--exclude JSON]
//	redactd config-reference                        settings as a Markdown table
//	redactd doctor [settings...]                    check the installation
//	redactd nats --config FILE                      run a NATS JetStream server (cluster installs)
//	redactd version                                 print the release
//
// Every command takes the settings of engine/config as flags (--data DIR,
// ...) and REDACTD_* environment variables. The store (pebble) admits one
// process: while a server runs, keys and defaults commands are sent to it
// over its admin socket; otherwise they open the store themselves.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the command failed
	exitUsage = 2 // bad command line
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// errUsage marks command-line mistakes (exit 2).
var errUsage = errors.New("usage")

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	var err error
	switch args[0] {
	case "serve":
		err = serve(args[1:], stderr)
	case "keys":
		err = keys(args[1:], stdout, stderr)
	case "defaults":
		err = defaults(args[1:], stdout, stderr)
	case "config-reference":
		err = configReference(args[1:], stdout)
	case "doctor":
		err = doctor(args[1:], stdout, stderr)
	case "nats":
		err = natsCmd(args[1:], stderr)
	case "version", "--version":
		err = printVersion(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	default:
		fmt.Fprintf(stderr, "redactd: unknown command %q\n", args[0])
		usage(stderr)
		return exitUsage
	}
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "redactd: %v\n", err)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "redactd: %v\n", err)
		return exitError
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage:
  redactd serve [--config FILE] [settings...]
  redactd keys create --email E [--plan free|standard] [--pages N] [--data DIR]
  redactd keys list [--data DIR]
  redactd keys revoke [--data DIR] ID
  redactd keys webhook-secret [--data DIR] --email E [--rotate]
  redactd defaults set --email E [--categories JSON] [--include JSON] [--exclude JSON] [--data DIR]
  redactd config-reference
  redactd doctor [--config FILE] [settings...]
  redactd nats --config FILE [--check] | --wait URL[,URL...] [--timeout D]
  redactd version

Settings are flags of the same name as in 'redactd config-reference', or
REDACTD_* environment variables, or keys of the --config JSON file.
`)
}

func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

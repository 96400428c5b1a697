package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/redactd/redactd/cmd/redactd/wire"
	"github.com/redactd/redactd/engine/config"
	"github.com/redactd/redactd/engine/contract"
	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
)

// withOps runs fn against the running server's admin socket when one
// answers, else against the store opened directly (no document
// processing: the engine is opened without a processor) and closed again.
func withOps(cfg config.Config, stderr io.Writer, fn func(context.Context, adminOps) error) error {
	ctx := context.Background()
	sock := adminSocket(cfg)
	if adminAnswers(sock) {
		c := newAdminClient(sock)
		defer c.hc.CloseIdleConnections()
		return fn(ctx, c)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	eng, err := jobs.Open(wire.Engine(cfg, nil), nil, log)
	if err != nil {
		return fmt.Errorf("open store %s: %w", cfg.Data, err)
	}
	err = fn(ctx, eng)
	if cerr := eng.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close store: %w", cerr)
	}
	return err
}

func keys(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("keys: want create, list, revoke or webhook-secret")
	}
	switch args[0] {
	case "create":
		return keysCreate(args[1:], stdout, stderr)
	case "list":
		return keysList(args[1:], stdout, stderr)
	case "revoke":
		return keysRevoke(args[1:], stdout, stderr)
	case "webhook-secret":
		return keysWebhookSecret(args[1:], stdout, stderr)
	}
	return usagef("keys: unknown subcommand %q (want create, list, revoke or webhook-secret)", args[0])
}

// keysWebhookSecret prints the account's webhook secret alone on the last
// line (creating it when there is none; --rotate makes a new one, and
// deliveries are signed with the new one from then on).
func keysWebhookSecret(args []string, stdout, stderr io.Writer) error {
	var email string
	var rotate bool
	cfg, fs, err := loadConfig("keys webhook-secret", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "account e-mail address")
		fs.BoolVar(&rotate, "rotate", false, "replace the secret with a new one")
	})
	if err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usagef("keys webhook-secret: unexpected argument %q", fs.Arg(0))
	case strings.TrimSpace(email) == "":
		return usagef("keys webhook-secret: --email is required")
	}
	return withOps(cfg, stderr, func(ctx context.Context, ops adminOps) error {
		secret, err := ops.WebhookSecret(ctx, email, rotate)
		if err != nil {
			return err
		}
		if rotate {
			fmt.Fprintln(stdout, "new webhook secret (deliveries are signed with it from now on):")
		} else {
			fmt.Fprintln(stdout, "webhook secret (HMAC-SHA256 key of X-Redactd-Signature):")
		}
		fmt.Fprintln(stdout, secret)
		return nil
	})
}

// keysCreate prints details, then the new key alone on the last line, so
// scripts can take it with tail -n1.
func keysCreate(args []string, stdout, stderr io.Writer) error {
	var email, plan string
	var pages int64
	cfg, fs, err := loadConfig("keys create", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "account e-mail address (the account is created on first use)")
		fs.StringVar(&plan, "plan", jobs.PlanFree, "plan of a new account: free or standard")
		fs.Int64Var(&pages, "pages", 0, "page quota of a new account (0: the plan's default)")
	})
	if err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usagef("keys create: unexpected argument %q", fs.Arg(0))
	case strings.TrimSpace(email) == "":
		return usagef("keys create: --email is required")
	case plan != jobs.PlanFree && plan != jobs.PlanStandard:
		return usagef("keys create: --plan must be free or standard")
	case pages < 0:
		return usagef("keys create: --pages must not be negative")
	}
	return withOps(cfg, stderr, func(ctx context.Context, ops adminOps) error {
		key, info, err := ops.CreateKey(ctx, email, plan, pages)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "key id:  %s\naccount: %s\nemail:   %s\n%s\n", info.ID, info.AccountID, info.Email, key)
		return nil
	})
}

func keysList(args []string, stdout, stderr io.Writer) error {
	cfg, fs, err := loadConfig("keys list", args, stderr, nil)
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("keys list: unexpected argument %q", fs.Arg(0))
	}
	return withOps(cfg, stderr, func(ctx context.Context, ops adminOps) error {
		ks, err := ops.ListKeys(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tACCOUNT\tEMAIL\tCREATED\tSTATE")
		for _, k := range ks {
			state := "active"
			if k.Revoked {
				state = "revoked"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.AccountID, k.Email, k.CreatedAt.UTC().Format(time.RFC3339), state)
		}
		return tw.Flush()
	})
}

func keysRevoke(args []string, stdout, stderr io.Writer) error {
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	cfg, fs, err := loadConfig("keys revoke", args, stderr, nil)
	if err != nil {
		return err
	}
	if id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usagef("keys revoke: unexpected argument %q", fs.Arg(0))
	}
	if id == "" {
		return usagef("keys revoke: want the key id (see keys list)")
	}
	return withOps(cfg, stderr, func(ctx context.Context, ops adminOps) error {
		if err := ops.RevokeKey(ctx, id); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %s\n", id)
		return nil
	})
}

// rawFlag records a flag's value and whether it was given at all, so an
// omitted list stays nil (not given) while '[]' means explicitly none.
type rawFlag struct {
	set bool
	val string
}

func (f *rawFlag) String() string     { return f.val }
func (f *rawFlag) Set(s string) error { f.set, f.val = true, s; return nil }

func defaults(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "set" {
		return usagef("defaults: want set")
	}
	var email string
	var cats, incl, excl rawFlag
	cfg, fs, err := loadConfig("defaults set", args[1:], stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "account e-mail address")
		fs.Var(&cats, "categories", `JSON array of categories, e.g. '["Person","Email"]'`)
		fs.Var(&incl, "include", `JSON array of terms always redacted`)
		fs.Var(&excl, "exclude", `JSON array of terms never redacted`)
	})
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("defaults set: unexpected argument %q", fs.Arg(0))
	}
	if strings.TrimSpace(email) == "" {
		return usagef("defaults set: --email is required")
	}
	opts, err := defaultOptions(cats, incl, excl, cfg.MaxTermCount)
	if err != nil {
		return err
	}
	return withOps(cfg, stderr, func(ctx context.Context, ops adminOps) error {
		if err := ops.SetDefaults(ctx, email, opts); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "defaults saved")
		return nil
	})
}

// optionFlags names the defaults flag behind each option field, so an
// error names what the operator typed.
var optionFlags = map[string]string{
	contract.FieldCategories: "--categories",
	contract.FieldIncluded:   "--include",
	contract.FieldExcluded:   "--exclude",
}

// defaultOptions decodes the defaults flags (JSON arrays; an unset flag
// or null leaves the saved value, [] saves "none") and checks them with
// the same contract.Options.Validate the HTTP layer and the engine apply.
func defaultOptions(cats, incl, excl rawFlag, maxTerms int) (jobs.Options, error) {
	var opts jobs.Options
	names, err := flagList("--categories", cats)
	if err != nil {
		return opts, err
	}
	if names != nil {
		opts.Categories = make([]page.Category, len(names))
		for i, n := range names {
			opts.Categories[i] = page.Category(n)
		}
	}
	if opts.Included, err = flagList("--include", incl); err != nil {
		return opts, err
	}
	if opts.Excluded, err = flagList("--exclude", excl); err != nil {
		return opts, err
	}
	opts, err = opts.Validate(contract.Limits{MaxTerms: maxTerms})
	var fe *contract.FieldError
	if errors.As(err, &fe) {
		base, index, _ := strings.Cut(fe.Field, "[")
		if flag, ok := optionFlags[base]; ok {
			if index != "" {
				index = "[" + index
			}
			return opts, usagef("%s%s: %s", flag, index, fe.Msg)
		}
		return opts, usagef("%v", err)
	}
	return opts, err
}

// flagList decodes a flag holding a JSON array of strings: nil when the
// flag is unset or null, empty for []. Invalid UTF-8 is refused before
// decoding, since encoding/json would replace it and change what the
// operator meant.
func flagList(name string, f rawFlag) ([]string, error) {
	if !f.set {
		return nil, nil
	}
	var v []string
	if !utf8.ValidString(f.val) || json.Unmarshal([]byte(f.val), &v) != nil {
		return nil, usagef("%s: must be a JSON array of strings", name)
	}
	return v, nil
}

func configReference(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usagef("config-reference takes no arguments")
	}
	_, err := io.WriteString(stdout, config.Reference())
	return err
}

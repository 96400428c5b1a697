package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/redactd/redactd/engine/jobs"
	"github.com/redactd/redactd/engine/page"
)

// The admin socket is a unix socket (mode 0600, inside the 0700 data
// directory) serving a small JSON API over HTTP for the keys and defaults
// commands while the server holds the store, plus /debug/pprof/ when
// pprof is enabled. Anyone who can open it is an administrator.
//
//	GET  /ping                  {"status":"ok"}
//	POST /keys                  {"email","plan","pages"} → {"key","info"}
//	GET  /keys                  {"keys":[info...]}
//	POST /keys/{id}/revoke      {"success":true}
//	PUT  /defaults              {"email","categories","included","excluded"} → {"success":true}
//	POST /webhook-secret        {"email","rotate"} → {"secret"}

// adminOps are the administrative operations; jobs.Service provides
// them directly and adminClient over the socket.
type adminOps interface {
	CreateKey(ctx context.Context, email, plan string, pages int64) (string, jobs.KeyInfo, error)
	ListKeys(ctx context.Context) ([]jobs.KeyInfo, error)
	RevokeKey(ctx context.Context, keyID string) error
	SetDefaults(ctx context.Context, email string, opts jobs.Options) error
	WebhookSecret(ctx context.Context, email string, rotate bool) (string, error)
}

type webhookSecretJSON struct {
	Email  string `json:"email"`
	Rotate bool   `json:"rotate"`
}

type keyInfoJSON struct {
	ID        string    `json:"id"`
	AccountID string    `json:"account_id"`
	Email     string    `json:"email"`
	CreatedAt time.Time `json:"created_at"`
	Revoked   bool      `json:"revoked"`
}

func toKeyInfoJSON(k jobs.KeyInfo) keyInfoJSON {
	return keyInfoJSON{ID: k.ID, AccountID: k.AccountID, Email: k.Email, CreatedAt: k.CreatedAt, Revoked: k.Revoked}
}

func (k keyInfoJSON) info() jobs.KeyInfo {
	return jobs.KeyInfo{ID: k.ID, AccountID: k.AccountID, Email: k.Email, CreatedAt: k.CreatedAt, Revoked: k.Revoked}
}

type createKeyJSON struct {
	Email string `json:"email"`
	Plan  string `json:"plan"`
	Pages int64  `json:"pages"`
}

type createdKeyJSON struct {
	Key  string      `json:"key"`
	Info keyInfoJSON `json:"info"`
}

// defaultsJSON keeps null (not given) apart from [] (explicitly none).
type defaultsJSON struct {
	Email      string          `json:"email"`
	Categories []page.Category `json:"categories"`
	Included   []string        `json:"included"`
	Excluded   []string        `json:"excluded"`
}

type adminError struct {
	Error string `json:"error"`
}

// adminServer serves the admin socket.
type adminServer struct {
	srv  *http.Server
	ln   net.Listener
	path string
}

// startAdmin listens on the unix socket at path. A stale socket file left
// by a crash is removed; a live one means another server runs.
func startAdmin(path string, withPprof bool, ops adminOps, log *slog.Logger) (*adminServer, error) {
	if adminAnswers(path) {
		return nil, fmt.Errorf("admin socket %s: another redactd answers on it", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	a := &adminServer{ln: ln, path: path, srv: &http.Server{Handler: adminHandler(ops, withPprof, log), ReadHeaderTimeout: 10 * time.Second}}
	go func() {
		if err := a.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin socket", "err", err)
		}
	}()
	return a, nil
}

// Close stops the admin server and removes the socket file.
func (a *adminServer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := a.srv.Shutdown(ctx)
	os.Remove(a.path)
	return err
}

func adminHandler(ops adminOps, withPprof bool, log *slog.Logger) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ping", func(w http.ResponseWriter, r *http.Request) {
		writeAdmin(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("POST /keys", func(w http.ResponseWriter, r *http.Request) {
		var in createKeyJSON
		if !readAdmin(w, r, &in) {
			return
		}
		key, info, err := ops.CreateKey(r.Context(), in.Email, in.Plan, in.Pages)
		if err != nil {
			adminFail(w, log, "create key", err)
			return
		}
		log.Info("admin: key created", "key_id", info.ID, "account", info.AccountID)
		writeAdmin(w, http.StatusOK, createdKeyJSON{Key: key, Info: toKeyInfoJSON(info)})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		ks, err := ops.ListKeys(r.Context())
		if err != nil {
			adminFail(w, log, "list keys", err)
			return
		}
		out := make([]keyInfoJSON, len(ks))
		for i, k := range ks {
			out[i] = toKeyInfoJSON(k)
		}
		writeAdmin(w, http.StatusOK, map[string]any{"keys": out})
	})
	mux.HandleFunc("POST /keys/{id}/revoke", func(w http.ResponseWriter, r *http.Request) {
		if err := ops.RevokeKey(r.Context(), r.PathValue("id")); err != nil {
			adminFail(w, log, "revoke key", err)
			return
		}
		log.Info("admin: key revoked", "key_id", r.PathValue("id"))
		writeAdmin(w, http.StatusOK, map[string]bool{"success": true})
	})
	mux.HandleFunc("PUT /defaults", func(w http.ResponseWriter, r *http.Request) {
		var in defaultsJSON
		if !readAdmin(w, r, &in) {
			return
		}
		opts := jobs.Options{Categories: in.Categories, Included: in.Included, Excluded: in.Excluded}
		if err := ops.SetDefaults(r.Context(), in.Email, opts); err != nil {
			adminFail(w, log, "set defaults", err)
			return
		}
		log.Info("admin: defaults set")
		writeAdmin(w, http.StatusOK, map[string]bool{"success": true})
	})
	mux.HandleFunc("POST /webhook-secret", func(w http.ResponseWriter, r *http.Request) {
		var in webhookSecretJSON
		if !readAdmin(w, r, &in) {
			return
		}
		secret, err := ops.WebhookSecret(r.Context(), in.Email, in.Rotate)
		if err != nil {
			adminFail(w, log, "webhook secret", err)
			return
		}
		log.Info("admin: webhook secret read", "rotated", in.Rotate)
		writeAdmin(w, http.StatusOK, map[string]string{"secret": secret})
	})
	if withPprof {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	return mux
}

func readAdmin(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeAdmin(w, http.StatusBadRequest, adminError{Error: "malformed request: " + err.Error()})
		return false
	}
	return true
}

// adminStatus maps engine errors to statuses so the client can rebuild
// them.
var adminStatus = []struct {
	err    error
	status int
}{
	{jobs.ErrInvalid, http.StatusBadRequest},
	{jobs.ErrNotFound, http.StatusNotFound},
	{jobs.ErrConflict, http.StatusConflict},
	{jobs.ErrUnauthorized, http.StatusUnauthorized},
	{jobs.ErrUnavailable, http.StatusServiceUnavailable},
}

func adminFail(w http.ResponseWriter, log *slog.Logger, op string, err error) {
	for _, m := range adminStatus {
		if errors.Is(err, m.err) {
			writeAdmin(w, m.status, adminError{Error: err.Error()})
			return
		}
	}
	log.Error("admin: "+op, "err", err)
	writeAdmin(w, http.StatusInternalServerError, adminError{Error: err.Error()})
}

func writeAdmin(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// adminClient sends admin operations to a running server.
type adminClient struct {
	hc *http.Client
}

func newAdminClient(path string) *adminClient {
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", path)
	}}
	return &adminClient{hc: &http.Client{Transport: tr, Timeout: time.Minute}}
}

// adminAnswers reports whether a server answers on the admin socket.
func adminAnswers(path string) bool {
	if _, err := os.Stat(path); err != nil {
		return false
	}
	c := newAdminClient(path)
	c.hc.Timeout = 2 * time.Second
	defer c.hc.CloseIdleConnections()
	var out map[string]string
	return c.do(context.Background(), "GET", "/ping", nil, &out) == nil && out["status"] == "ok"
}

func (c *adminClient) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, "http://admin"+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return fmt.Errorf("admin socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var ae adminError
		json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&ae)
		msg := strings.TrimSpace(ae.Error)
		if msg == "" {
			msg = resp.Status
		}
		for _, m := range adminStatus {
			if m.status == resp.StatusCode {
				// The server's text already ends with the sentinel's.
				return fmt.Errorf("%s%w", strings.TrimSuffix(msg, m.err.Error()), m.err)
			}
		}
		return errors.New(msg)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (c *adminClient) CreateKey(ctx context.Context, email, plan string, pages int64) (string, jobs.KeyInfo, error) {
	var out createdKeyJSON
	err := c.do(ctx, "POST", "/keys", createKeyJSON{Email: email, Plan: plan, Pages: pages}, &out)
	return out.Key, out.Info.info(), err
}

func (c *adminClient) ListKeys(ctx context.Context) ([]jobs.KeyInfo, error) {
	var out struct {
		Keys []keyInfoJSON `json:"keys"`
	}
	if err := c.do(ctx, "GET", "/keys", nil, &out); err != nil {
		return nil, err
	}
	ks := make([]jobs.KeyInfo, len(out.Keys))
	for i, k := range out.Keys {
		ks[i] = k.info()
	}
	return ks, nil
}

func (c *adminClient) RevokeKey(ctx context.Context, id string) error {
	var out map[string]bool
	return c.do(ctx, "POST", "/keys/"+url.PathEscape(id)+"/revoke", nil, &out)
}

func (c *adminClient) SetDefaults(ctx context.Context, email string, opts jobs.Options) error {
	var out map[string]bool
	return c.do(ctx, "PUT", "/defaults", defaultsJSON{Email: email, Categories: opts.Categories, Included: opts.Included, Excluded: opts.Excluded}, &out)
}

func (c *adminClient) WebhookSecret(ctx context.Context, email string, rotate bool) (string, error) {
	var out map[string]string
	err := c.do(ctx, "POST", "/webhook-secret", webhookSecretJSON{Email: email, Rotate: rotate}, &out)
	return out["secret"], err
}

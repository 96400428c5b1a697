package jobs

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/redactd/redactd/engine/store/record"
)

// auditKeyFile is the file, in the data directory, holding the 32 bytes
// that key the review audit logs (HMAC-SHA256, engine/review). Like the
// upload secret it is 0600 and apart from the job files, so someone who
// can write a document's audit log (a blob store, a restored backup)
// cannot recompute its chain. It is made once and never replaced: a new
// key would make every keyed log fail to verify.
const auditKeyFile = "audit-key"

// loadAuditKey returns the installation's audit key: from the shared
// store on a cluster (the same on every node), else from DATA/audit-key,
// made at the first start.
func (c *core) loadAuditKey() ([]byte, error) {
	candidate := make([]byte, 32)
	if _, err := rand.Read(candidate); err != nil {
		return nil, err
	}
	if shared, ok := c.jl.(record.AuditKeyKeeper); ok {
		return shared.SharedAuditKey(candidate)
	}
	path := filepath.Join(c.cfg.Data, auditKeyFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil && len(b) == 32:
		return b, nil
	case err == nil:
		return nil, fmt.Errorf("%s: %d bytes, want 32", path, len(b))
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	if err := writeSecret(c.cfg.Data, auditKeyFile, candidate); err != nil {
		return nil, fmt.Errorf("write %s: %w", path, err)
	}
	return candidate, nil
}

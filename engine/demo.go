package engine

import (
	"context"
	"fmt"
)

// Demo describes the redaction of the built-in sample. Placeholder until
// the demo is implemented in this file: it reports the demo as
// unavailable.
func (e *Engine) Demo(ctx context.Context) (*DemoResult, []byte, error) {
	return nil, nil, fmt.Errorf("%w: demo not available", ErrUnavailable)
}

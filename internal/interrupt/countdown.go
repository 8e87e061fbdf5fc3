package interrupt

import (
	"context"
	"sync/atomic"
)

// Countdown is a context for tests of cancellation: it cancels itself
// (context.Canceled) at its n-th call of Err, so that a test cancels work
// at a known point without a clock, and it counts the calls. Contexts
// derived from it are cancelled with it (its Done channel closes then).
type Countdown struct {
	context.Context
	cancel context.CancelFunc
	calls  atomic.Int64
	n      int64
}

// NewCountdown returns a Countdown that cancels itself at the n-th call of
// Err.
func NewCountdown(n int64) *Countdown {
	ctx, cancel := context.WithCancel(context.Background())
	return &Countdown{Context: ctx, cancel: cancel, n: n}
}

// Err cancels the context at the n-th call, and returns its error.
func (c *Countdown) Err() error {
	if c.calls.Add(1) >= c.n {
		c.cancel()
	}
	return c.Context.Err()
}

// Calls is the number of calls of Err so far.
func (c *Countdown) Calls() int64 { return c.calls.Load() }

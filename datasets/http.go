package datasets

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync"
	"time"
)

// TimeoutError says that an http(s) mirror stopped answering: no connection,
// no response headers, or no bytes of the body within the limit of
// Options.ConnectTimeout, HeaderTimeout or StallTimeout. It matches
// context.DeadlineExceeded (errors.Is). The callers wrap it with the URL.
type TimeoutError struct {
	URL   string
	Phase string        // "connect", "headers" or "body"
	Limit time.Duration // the limit that ran out
}

func (e *TimeoutError) Error() string {
	switch e.Phase {
	case "connect":
		host := e.URL
		if u, err := url.Parse(e.URL); err == nil {
			host = u.Host
		}
		return fmt.Sprintf("timed out: no connection to %s within %v (ConnectTimeout)", host, e.Limit)
	case "headers":
		return fmt.Sprintf("timed out: the server accepted the connection but sent no response headers within %v (HeaderTimeout)", e.Limit)
	}
	return fmt.Sprintf("timed out: the download stalled, no bytes for %v (StallTimeout)", e.Limit)
}

// Timeout reports true, as net.Error's Timeout does.
func (e *TimeoutError) Timeout() bool { return true }

// Is makes a TimeoutError match context.DeadlineExceeded, so that callers
// that already treat deadlines as timeouts need no new case.
func (e *TimeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// limitOr returns v, or def when v is zero (negative: no limit).
func limitOr(v, def time.Duration) time.Duration {
	if v == 0 {
		return def
	}
	return v
}

// watchdog cancels a request's context when the current phase's limit runs
// out, with a *TimeoutError as the cause. One timer is re-armed per phase
// (connect, headers) and reset by every read that brings bytes (body), which
// makes the body limit a stall timeout: a download of any length succeeds
// as long as no gap between chunks exceeds it.
type watchdog struct {
	mu     sync.Mutex
	timer  *time.Timer
	limit  time.Duration
	cancel context.CancelCauseFunc
}

// arm stops the running timer and starts one for e's phase (none when its
// limit is not positive).
func (w *watchdog) arm(e *TimeoutError) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	w.limit = e.Limit
	if e.Limit > 0 {
		w.timer = time.AfterFunc(e.Limit, func() { w.cancel(e) })
	}
}

// kick restarts the current phase's timer (bytes arrived).
func (w *watchdog) kick() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil {
		w.timer.Reset(w.limit)
	}
}

func (w *watchdog) stop() { w.arm(&TimeoutError{}) }

// httpDo sends a request to an http(s) mirror under the Options' timeouts
// and the caller's context: cancelling ctx stops the request at once, in
// any phase, including while the body is read. Errors are the context's
// cause: a *TimeoutError, or ctx's own error.
func (o *Options) httpDo(ctx context.Context, method, loc string) (*http.Response, error) {
	rctx, cancel := context.WithCancelCause(ctx)
	w := &watchdog{cancel: cancel}
	w.arm(&TimeoutError{URL: loc, Phase: "connect", Limit: limitOr(o.ConnectTimeout, DefaultConnectTimeout)})
	// The header limit starts once a connection is had, so that a slow name
	// lookup or TLS handshake counts against ConnectTimeout only.
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) {
		w.arm(&TimeoutError{URL: loc, Phase: "headers", Limit: limitOr(o.HeaderTimeout, DefaultHeaderTimeout)})
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(rctx, trace), method, loc, nil)
	if err != nil {
		w.stop()
		cancel(nil)
		return nil, err
	}
	client := o.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		w.stop()
		// The transport reports a cancelled context as "context canceled";
		// the cause says which limit ran out, or that the caller cancelled.
		if c := context.Cause(rctx); c != nil {
			err = c
		}
		cancel(nil)
		return nil, err
	}
	w.arm(&TimeoutError{URL: loc, Phase: "body", Limit: limitOr(o.StallTimeout, DefaultStallTimeout)})
	resp.Body = &watchedBody{rc: resp.Body, w: w, ctx: rctx, cancel: cancel}
	return resp, nil
}

// watchedBody feeds the watchdog as bytes arrive and reports a cancelled
// read by its cause.
type watchedBody struct {
	rc     io.ReadCloser
	w      *watchdog
	ctx    context.Context
	cancel context.CancelCauseFunc
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	if n > 0 {
		b.w.kick()
	}
	if err != nil && err != io.EOF {
		if c := context.Cause(b.ctx); c != nil {
			err = c
		}
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.w.stop()
	err := b.rc.Close()
	b.cancel(nil)
	return err
}

// probeHTTP asks an http(s) mirror whether it has loc without downloading
// it: true on 200, false on 404 or 410. A server that refuses HEAD is asked
// with a GET whose body is closed unread.
func (o *Options) probeHTTP(ctx context.Context, loc string) (bool, error) {
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		resp, err := o.httpDo(ctx, method, loc)
		if err != nil {
			return false, err
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusOK:
			return true, nil
		case http.StatusNotFound, http.StatusGone:
			return false, nil
		case http.StatusMethodNotAllowed, http.StatusNotImplemented:
			continue
		}
		return false, &httpStatusError{resp.Status}
	}
	return false, &httpStatusError{"405: the server accepts neither HEAD nor GET"}
}

// httpStatusError is an answer other than found or not found: the server
// answered, so it is not down.
type httpStatusError struct{ status string }

func (e *httpStatusError) Error() string { return "HTTP " + e.status }

//go:build !unix

package datasets

import "os"

// flock is a no-op without flock (Windows, Plan 9, wasm): processes that
// share a cache there may lose provenance entries, never data.
func flock(f *os.File) error { return nil }

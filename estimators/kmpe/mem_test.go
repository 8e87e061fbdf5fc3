package kmpe

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// overlapRows is goldenRows at other sizes: a mixture of n rows, 60 %
// uniform on [0,1]^3 and 40 % on [0.7, 1.7]^3, and a component of m rows
// on [0.7, 1.7]^3. The two overlap, so the QPs near lambda = 1 have
// supports of most mixture rows: large factors, stored and copied.
func overlapRows(seed uint64, n, m int) (mix, comp [][]float64) {
	r := rand.New(rand.NewPCG(seed, 76))
	draw := func(k int, shift float64) [][]float64 {
		out := make([][]float64, k)
		for i := range out {
			out[i] = []float64{r.Float64() + shift, r.Float64() + shift, r.Float64() + shift}
		}
		return out
	}
	mix = append(draw(n*3/5, 0), draw(n-n*3/5, 0.7)...)
	return mix, draw(m, 0.7)
}

// peakHeap runs f while sampling runtime.MemStats.HeapAlloc, with the
// collector set to collect at 5 % growth (so that the heap holds little
// garbage beside the live memory the counts bound), and returns the
// largest sample above the heap before f. Samples can only miss the peak,
// never exceed it.
func peakHeap(f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var s runtime.MemStats
		for {
			runtime.ReadMemStats(&s)
			if s.HeapAlloc > base && s.HeapAlloc-base > peak.Load() {
				peak.Store(s.HeapAlloc - base)
			}
			select {
			case <-done:
				return
			case <-time.After(100 * time.Microsecond):
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	return peak.Load()
}

// TestMemoryCount: the live heap of an estimate (sampled from
// runtime.MemStats) never exceeds the count the memory check uses, and
// the count is not far above it (the n x n matrices are all there: the
// sample reaches at least the kernel's 8 n^2 bytes, and the count is
// within 8 times the sample). Both paths: Estimate (distances, kernel in
// their place, factors) and Cache.Estimate (the pool's distances and
// kernel, the split's kernel gathered from it, factors).
func TestMemoryCount(t *testing.T) {
	if testing.Short() {
		t.Skip("samples the heap of two estimates on 1,500 rows")
	}
	ctx := context.Background()
	mix, comp := overlapRows(3, 900, 600)
	n, d, w := uint64(1500), uint64(3), uint64(runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		name  string
		count uint64
		run   func() (*Result, error)
	}{
		{"Estimate", directBytes(n, d, w), func() (*Result, error) { return Estimate(ctx, mix, comp, Options{}) }},
		{"Cache.Estimate", cacheBytes(n, d, w), func() (*Result, error) { return NewCache(1).Estimate(ctx, mix, comp, Options{}) }},
	} {
		var r *Result
		var err error
		peak := peakHeap(func() { r, err = c.run() })
		if err != nil {
			t.Fatal(err)
		}
		maxSupport := 0
		for _, s := range r.Solves {
			maxSupport = max(maxSupport, s.Support)
		}
		t.Logf("%s on %d rows: peak live heap %s, counted %s (%.2f), largest support %d of %d QPs",
			c.name, n, humanBytes(peak), humanBytes(c.count), float64(c.count)/float64(peak), maxSupport, len(r.Solves))
		if peak > c.count {
			t.Errorf("%s: the heap reached %d bytes, above the counted %d", c.name, peak, c.count)
		}
		if peak < 8*n*n || c.count > 8*peak {
			t.Errorf("%s: the heap reached %d bytes: want at least the kernel's %d, and at least 1/8 of the counted %d", c.name, peak, 8*n*n, c.count)
		}
	}
}

// lowMemory makes memAvailable report avail bytes until the test ends.
func lowMemory(t *testing.T, avail uint64) {
	old := memAvailable
	memAvailable = func() (uint64, string) { return avail, "the test's limit" }
	t.Cleanup(func() { memAvailable = old })
}

// TestTooLargeRefusedFirst: with half the memory available that an
// estimate needs, every entry point refuses it with a *SizeError wrapping
// ErrTooLarge that names the rows, the bytes needed and available and the
// largest row count that fits, having allocated far less than one n x n
// matrix; a refused Cache.Estimate caches nothing, so the same call with
// enough memory runs.
func TestTooLargeRefusedFirst(t *testing.T) {
	ctx := context.Background()
	mix, comp := overlapRows(4, 1800, 1200)
	n, d, w := uint64(3000), uint64(3), uint64(2)
	pooled := append(append([][]float64{}, mix...), comp...)
	pool, err := NewPool(pooled, "", 2)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	cache := NewCache(1)
	cases := []struct {
		name string
		need func(m uint64) uint64
		run  func() error
	}{
		{"Estimate", func(m uint64) uint64 { return directBytes(m, d, w) }, func() error {
			_, err := Estimate(ctx, mix, comp, Options{Workers: 2})
			return err
		}},
		{"Cache.Estimate", func(m uint64) uint64 { return cacheBytes(m, d, w) }, func() error {
			_, err := cache.Estimate(ctx, mix, comp, Options{Workers: 2})
			return err
		}},
		{"Pool.Estimate", func(m uint64) uint64 { return poolEstimateBytes(m, n, w, true) }, func() error {
			_, err := pool.Estimate(ctx, idx[:1800], idx[1800:], Options{Workers: 2})
			return err
		}},
		{"NewPool", func(m uint64) uint64 { return distanceBytes(m, d, w) }, func() error {
			_, err := NewPool(pooled, "", 2)
			return err
		}},
	}
	for _, c := range cases {
		avail := c.need(n) / 2
		lowMemory(t, avail)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := c.run()
		runtime.ReadMemStats(&after)
		var se *SizeError
		if !errors.Is(err, ErrTooLarge) || !errors.As(err, &se) {
			t.Errorf("%s with %d bytes available: %v, want a *SizeError wrapping ErrTooLarge", c.name, avail, err)
			continue
		}
		if se.Rows != int(n) || se.Need != c.need(n) || se.Available != avail || se.Source != "the test's limit" {
			t.Errorf("%s: %+v, want %d rows needing %d bytes of %d", c.name, *se, n, c.need(n), avail)
		}
		// The largest row count that fits, by its definition.
		if m := uint64(se.MaxRows); m == 0 || c.need(m) > avail || c.need(m+1) <= avail {
			t.Errorf("%s: at most %d rows fit, but they need %d bytes and one more %d, of %d", c.name, m, c.need(m), c.need(m+1), avail)
		}
		for _, want := range []string{fmt.Sprint(n), fmt.Sprint(c.need(n)), fmt.Sprint(avail), fmt.Sprintf("at most %d rows fit", se.MaxRows)} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", c.name, err, want)
			}
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 8*n*n/16 {
			t.Errorf("%s: allocated %d bytes before refusing, want far less than an n x n matrix (%d)", c.name, got, 8*n*n)
		}
	}
	memAvailable = func() (uint64, string) { return 1 << 40, "the test's ample memory" }
	if _, err := cache.Estimate(ctx, mix[:300], comp[:200], Options{Workers: 2}); err != nil {
		t.Errorf("after a refusal, an estimate with enough memory: %v", err)
	}
	if _, err := cache.Estimate(ctx, mix, comp, Options{Workers: 2}); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("after a refusal, the same estimate with enough memory: %v", err)
	}
}

// TestMemGate: an estimate that fits only once another ends waits for it;
// one that would not fit even alone, or may not wait, is refused at once;
// a cancelled context ends the wait; a large estimate lowers the Go memory
// limit while it runs and the limit is restored after it.
func TestMemGate(t *testing.T) {
	const gib = 1 << 30
	lowMemory(t, 64*gib) // the gate only counts: nothing of this size is allocated
	g := &memGate{released: make(chan struct{})}
	rows := func(uint64) int { return 7 }
	ctx := context.Background()
	limit := debug.SetMemoryLimit(-1)

	releaseA, err := g.admit(ctx, 40*gib, 1, rows, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := debug.SetMemoryLimit(-1); got >= limit || got < 64*gib {
		t.Errorf("memory limit %d while 40 of 64 GiB are reserved: want it lowered to the process's use plus 64 GiB", got)
	}
	if _, err := g.admit(ctx, 110*gib, 1, rows, true); !errors.Is(err, ErrTooLarge) {
		t.Errorf("110 GiB beside 40 reserved of 64 available: %v, want a refusal (not a wait)", err)
	}
	if _, err := g.admit(ctx, 40*gib, 1, rows, false); !errors.Is(err, ErrTooLarge) {
		t.Errorf("40 GiB beside 40 reserved, no waiting: %v, want a refusal", err)
	}
	admitted := make(chan error, 1)
	go func() {
		release, err := g.admit(ctx, 40*gib, 1, rows, true)
		if err == nil {
			release()
		}
		admitted <- err
	}()
	waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.waiting == 1 })
	select {
	case err := <-admitted:
		t.Fatalf("admitted while the first holds its memory: %v", err)
	default:
	}
	releaseA()
	if err := <-admitted; err != nil {
		t.Errorf("after the first ended: %v", err)
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit %d after the estimates ended, want %d restored", got, limit)
	}

	releaseB, err := g.admit(ctx, 40*gib, 1, rows, true)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		_, err := g.admit(cctx, 40*gib, 1, rows, true)
		admitted <- err
	}()
	waitFor(t, func() bool { g.mu.Lock(); defer g.mu.Unlock(); return g.waiting == 1 })
	cancel()
	if err := <-admitted; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while waiting: %v", err)
	}
	releaseB()
	if g.reserved != 0 {
		t.Errorf("%d bytes reserved after every estimate ended", g.reserved)
	}
}

// waitFor polls cond until it holds (a minute at most: a broken gate must
// not hang the test).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in a minute")
		}
	}
}

func TestParseMemAvailable(t *testing.T) {
	info := "MemTotal:       24522840 kB\nMemFree:        23987700 kB\nMemAvailable:   24090116 kB\nBuffers:            2112 kB\n"
	if v, ok := parseMemAvailable([]byte(info)); !ok || v != 24090116*1024 {
		t.Errorf("MemAvailable: %d %v, want %d", v, ok, 24090116*1024)
	}
	if _, ok := parseMemAvailable([]byte("MemTotal: 1 kB\n")); ok {
		t.Error("no MemAvailable line: read one")
	}
	// cgroup v2: 8 GiB limit, 3 GiB used of which 1 GiB inactive file cache.
	stat := "anon 1000\ninactive_file 1073741824\nactive_file 5\n"
	if v, ok := cgroupLeft("8589934592", "3221225472", stat, "inactive_file"); !ok || v != 6<<30 {
		t.Errorf("cgroup: %d %v, want 6 GiB", v, ok)
	}
	for _, limit := range []string{"max", "", "9223372036854771712"} {
		if _, ok := cgroupLeft(limit, "100", "", "inactive_file"); ok {
			t.Errorf("cgroup limit %q read as a limit", limit)
		}
	}
	if v, ok := cgroupLeft("100", "300", "", "inactive_file"); !ok || v != 0 {
		t.Errorf("usage above the limit: %d %v, want 0", v, ok)
	}
}

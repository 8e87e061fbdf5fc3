package kmpe

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
)

// fallbackAvailable is what an estimate may take where the machine's free
// memory cannot be read (no /proc/meminfo: not Linux) and no Go memory
// limit is set (GOMEMLIMIT, which raises or lowers it): a conservative
// 4 GiB, enough for about 9,000 pooled rows.
const fallbackAvailable = 4 << 30

// memAvailable returns the bytes this process can still allocate and where
// the figure comes from (tests replace it).
var memAvailable = systemAvailable

// systemAvailable is the least of: the machine's MemAvailable (Linux's
// estimate of what can be allocated without swapping), what the memory
// cgroup's limit leaves, and what a Go memory limit (GOMEMLIMIT) leaves;
// without any of them, fallbackAvailable. The heap the Go runtime holds
// free counts as available: the runtime reuses it before it asks the
// system for more.
func systemAvailable() (uint64, string) {
	total, heapFree := goMemory()
	var avail uint64
	src := ""
	take := func(v uint64, from string) {
		if src == "" || v < avail {
			avail, src = v, from
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if v, ok := parseMemAvailable(b); ok {
			take(v+heapFree, "MemAvailable in /proc/meminfo")
		}
	}
	if v, ok := cgroupAvailable(); ok {
		take(v+heapFree, "the memory cgroup's limit")
	}
	if lim := debug.SetMemoryLimit(-1); lim < math.MaxInt64 {
		used := total - min(total, heapFree)
		take(uint64(lim)-min(uint64(lim), used), "GOMEMLIMIT")
	}
	if src == "" {
		take(fallbackAvailable+heapFree, fmt.Sprintf("a fixed %s: the free memory of %s is not read; set GOMEMLIMIT to allow more", humanBytes(fallbackAvailable), runtime.GOOS))
	}
	return avail, src
}

// goMemory returns the memory the Go runtime has mapped and the part of
// its heap it holds free (not returned to the system).
func goMemory() (total, heapFree uint64) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		total = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == metrics.KindUint64 {
		heapFree = s[1].Value.Uint64()
	}
	return total, heapFree
}

// parseMemAvailable reads the MemAvailable line (in kB) of /proc/meminfo.
func parseMemAvailable(b []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil || (len(f) > 2 && f[2] != "kB") {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}

// cgroupAvailable returns what the memory cgroup's limit leaves (limit -
// usage + the inactive file cache, which the kernel reclaims first), cgroup
// v2 or v1, and false without a limit.
func cgroupAvailable() (uint64, bool) {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	for _, v := range []struct{ limit, usage, stat, inactive string }{
		{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current", "/sys/fs/cgroup/memory.stat", "inactive_file"},
		{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes", "/sys/fs/cgroup/memory/memory.stat", "total_inactive_file"},
	} {
		if a, ok := cgroupLeft(read(v.limit), read(v.usage), read(v.stat), v.inactive); ok {
			return a, true
		}
	}
	return 0, false
}

// cgroupLeft computes cgroupAvailable from the files' contents: false
// when the limit is absent, "max" or beyond any machine (cgroup v1 writes
// a number near 2^63 for no limit).
func cgroupLeft(limit, usage, stat, inactiveKey string) (uint64, bool) {
	lim, err := strconv.ParseUint(limit, 10, 64)
	if err != nil || lim >= 1<<60 {
		return 0, false
	}
	used, err := strconv.ParseUint(usage, 10, 64)
	if err != nil {
		return 0, false
	}
	var inactive uint64
	for _, line := range strings.Split(stat, "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == inactiveKey {
			inactive, _ = strconv.ParseUint(f[1], 10, 64)
		}
	}
	used -= min(used, inactive)
	return lim - min(lim, used), true
}

// memGate admits estimates by the memory they need. An estimate that does
// not fit in what is available, less what the estimates admitted before it
// may still allocate, waits for them to finish when it would fit without
// them, and is refused when it would not (so that estimates run
// concurrently, as the cells of an experiment do, are refused or run as
// one alone would be, not by the order in which they start).
//
// Go's collector lets the heap grow to twice what was live after the last
// collection (GOGC=100), so an estimate that holds more than a quarter of
// what is available could, with the garbage of its own factors, ask the
// system for more than it has: while one runs, the Go memory limit (a soft
// limit: the collector works harder near it) is lowered to what the
// process uses plus what was available, and restored when the last one
// ends.
type memGate struct {
	mu       sync.Mutex
	reserved uint64        // bytes the admitted estimates may allocate
	released chan struct{} // closed, and replaced, when an estimate ends
	waiting  int           // estimates waiting for others (tests)
	limiting int           // admitted estimates that lowered the memory limit
	saved    int64         // the memory limit before the first of them
}

var gate = &memGate{released: make(chan struct{})}

// admit reserves need bytes for an estimate of rows pooled rows and
// returns the function that ends the reservation; maxRows(avail) is the
// largest row count that fits in avail bytes. A refusal is a *SizeError;
// with wait false, an estimate that would fit once others end is refused
// too. A cancelled ctx ends the wait.
func (g *memGate) admit(ctx context.Context, need uint64, rows int, maxRows func(avail uint64) int, wait bool) (func(), error) {
	collected := false
	for {
		g.mu.Lock()
		avail, src := memAvailable()
		if free := avail - min(avail, g.reserved); need <= free {
			g.reserved += need
			limiting := g.lowerLimit(need, avail)
			g.mu.Unlock()
			return func() { g.release(need, limiting) }, nil
		}
		if !collected {
			// The garbage of earlier estimates (their factors and
			// kernels) may hold what is missing: collect it, return it to
			// the system and look again.
			g.mu.Unlock()
			collected = true
			debug.FreeOSMemory()
			continue
		}
		if !wait || g.reserved == 0 || need > avail+g.reserved {
			g.mu.Unlock()
			return nil, &SizeError{Rows: rows, Need: need, Available: avail, Source: src, MaxRows: maxRows(avail)}
		}
		ch := g.released
		g.waiting++
		g.mu.Unlock()
		var err error
		select {
		case <-ch:
		case <-ctx.Done():
			err = fmt.Errorf("kmpe: waiting for memory held by other estimates: %w", context.Cause(ctx))
		}
		g.mu.Lock()
		g.waiting--
		g.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
}

// lowerLimit lowers the Go memory limit to what the process uses plus
// avail when need is more than a quarter of avail, and reports whether it
// did (g.mu held).
func (g *memGate) lowerLimit(need, avail uint64) bool {
	if need <= avail/4 {
		return false
	}
	total, heapFree := goMemory()
	limit := total - min(total, heapFree) + avail
	if limit > math.MaxInt64 {
		return false
	}
	cur := debug.SetMemoryLimit(-1)
	if g.limiting == 0 {
		g.saved = cur
	}
	g.limiting++
	debug.SetMemoryLimit(min(cur, int64(limit)))
	return true
}

// release ends a reservation of need bytes, restoring the memory limit
// after the last estimate that lowered it.
func (g *memGate) release(need uint64, limiting bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reserved -= need
	if limiting {
		if g.limiting--; g.limiting == 0 {
			debug.SetMemoryLimit(g.saved)
		}
	}
	close(g.released)
	g.released = make(chan struct{})
}

//go:build unix

package linalg

import (
	"syscall"
	"time"
)

// cpuTime is the process's user + system CPU time, for benchmarks on a shared
// machine: wall time grows when other processes take the cores, CPU time
// much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

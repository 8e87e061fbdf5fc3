package experiments

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Progress reports how far a run is: a live bar on a terminal (cells done of
// total, rate, ETA, the cell just finished), and plain lines at most every
// Interval otherwise, so that CI logs and nohup files stay readable.
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	total    int
	done     int // cells finished in this run
	skipped  int // cells already done before this run
	failed   int
	start    time.Time
	last     time.Time
	Interval time.Duration
	now      func() time.Time
}

// NewProgress returns a reporter writing to w for a run of total cells of
// which skipped were already done. The bar is used when w is a terminal.
func NewProgress(w io.Writer, total, skipped int) *Progress {
	p := &Progress{w: w, total: total, skipped: skipped, Interval: 30 * time.Second, now: time.Now}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	p.start = p.now()
	p.last = p.start
	return p
}

// Done records one finished cell (failed or not) and reports.
func (p *Progress) Done(cell string, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if failed {
		p.failed++
	}
	now := p.now()
	finished := p.skipped+p.done == p.total
	if !p.tty && !finished && now.Sub(p.last) < p.Interval {
		return
	}
	p.last = now
	line := p.line(now, cell)
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		if finished {
			fmt.Fprintln(p.w)
		}
		return
	}
	fmt.Fprintln(p.w, line)
}

func (p *Progress) line(now time.Time, cell string) string {
	all := p.skipped + p.done
	el := now.Sub(p.start)
	rate := float64(p.done) / el.Seconds() // cells per second in this run
	eta := "?"
	if p.done > 0 && rate > 0 {
		eta = fmtDuration(time.Duration(float64(p.total-all) / rate * float64(time.Second)))
	}
	var b strings.Builder
	if p.tty {
		const width = 24
		filled := 0
		if p.total > 0 {
			filled = all * width / p.total
		}
		b.WriteString("[" + strings.Repeat("=", filled) + strings.Repeat(" ", width-filled) + "] ")
	}
	fmt.Fprintf(&b, "%d/%d cells", all, p.total)
	if p.skipped > 0 {
		fmt.Fprintf(&b, " (%d from earlier runs)", p.skipped)
	}
	if p.failed > 0 {
		fmt.Fprintf(&b, ", %d failed", p.failed)
	}
	fmt.Fprintf(&b, ", %.1f cells/min, elapsed %s, ETA %s", rate*60, fmtDuration(el), eta)
	if cell != "" {
		fmt.Fprintf(&b, ", last %s", cell)
	}
	return b.String()
}

// Message prints a line that is not a progress update (a warning, say)
// without garbling the bar.
func (p *Progress) Message(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

func fmtDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm", h, m)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

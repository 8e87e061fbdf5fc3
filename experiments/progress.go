package experiments

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

// Progress reports how far a run is: a live bar on a terminal (cells done of
// total, rate, ETA, the cell just finished), and plain lines at most every
// Interval otherwise, so that CI logs and nohup files stay readable.
//
// The ETA. Cells of different data sets cost very different times (a Bank
// cell of AAAI-2017 trains on 11,000 rows, a Housing cell on 506), so "cells
// left / cells per minute" is wrong whenever the cells done so far are not a
// fair sample of those left. With a Plan (the cells left per data set and a
// prior weight per data set, e.g. rows x (columns + 1)), the reporter
// estimates each data set's cost per cell as the median wall time of its
// finished cells (the median, because a data set's first cell may also
// train a shared model, such as AAAI-2017's traditional bag; cells whose
// classifier scores came from the score cache are left out, since they
// finish in a fraction of the time of the cells left: a second run of a
// grid with one more repeat would otherwise promise to end at once), and, for a
// data set with none finished yet, as its prior weight times the seconds
// per unit of weight of the data sets that have. The ETA is the estimated
// cost of the cells left divided by the run's measured concurrency, the
// summed wall times of the finished cells over the elapsed time (about -j). The runner also orders the
// work repeat by repeat (experiments.Runner), so that every data set
// finishes cells within the first minutes and the estimate is
// representative early.
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
	plan     map[string]*dsCost // nil: ETA from the cell rate alone
}

// dsCost is what the ETA knows of one data set's cells.
type dsCost struct {
	prior  float64   // the Plan's weight per cell
	left   int       // cells not finished
	done   int       // cells finished in this run
	took   []float64 // the wall times of those computed in full, seconds
	cached float64   // the summed wall time of the others (served by a cache)
}

// Plan gives the reporter the cells still to run per data set and a prior
// cost weight per cell of each data set (any positive unit: only ratios
// between data sets matter). Call it before the first Done.
func (p *Progress) Plan(left map[string]int, prior map[string]float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.plan = map[string]*dsCost{}
	for ds, n := range left {
		p.plan[ds] = &dsCost{prior: prior[ds], left: n}
	}
}

// Finished records one finished cell of data set ds that took the given
// wall time (failed or not) and reports, like Done. cached says the cell's
// expensive part (its classifier's scores) came from a cache: its time then
// counts towards the run's concurrency but not towards the cost of the
// data set's cells left.
func (p *Progress) Finished(cell, ds string, took time.Duration, failed, cached bool) {
	p.mu.Lock()
	if c := p.plan[ds]; c != nil {
		c.left = max(0, c.left-1)
		c.done++
		if cached {
			c.cached += took.Seconds()
		} else {
			c.took = append(c.took, took.Seconds())
		}
	}
	p.mu.Unlock()
	p.Done(cell, failed)
}

// planETA is the cost-weighted ETA (see Progress), or false when no data set
// has a finished cell to calibrate it.
func (p *Progress) planETA(elapsed time.Duration) (time.Duration, bool) {
	if p.plan == nil {
		return 0, false
	}
	est := map[string]float64{}
	var secs, weight float64
	for ds, c := range p.plan {
		if len(c.took) > 0 {
			est[ds] = median(c.took)
			secs += est[ds]
			weight += c.prior
		}
	}
	if len(est) == 0 {
		return 0, false
	}
	var took, left float64
	for ds, c := range p.plan {
		took += c.cached
		for _, s := range c.took {
			took += s
		}
		e, ok := est[ds]
		if !ok {
			if weight <= 0 || c.prior <= 0 {
				return 0, false // no way to scale this data set's cost
			}
			e = c.prior * secs / weight
		}
		left += float64(e * float64(c.left))
	}
	if took <= 0 || elapsed <= 0 {
		return 0, false
	}
	concurrency := took / elapsed.Seconds()
	return time.Duration(left / concurrency * float64(time.Second)), true
}

// median of xs (which it sorts).
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
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
	if d, ok := p.planETA(el); ok {
		eta = fmtDuration(d)
	} else if p.done > 0 && rate > 0 {
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

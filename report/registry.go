package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/pueval/pueval/experiments/results"
)

// Input is what a paper report renders.
type Input struct {
	Records  []results.Record
	Manifest results.Manifest // zero value when the directory has none
	// Verify is the run compared with its config's reference digests (the
	// zero value: not compared).
	Verify Verification
	// claims collects the claims a paper's report checked (NoteClaims),
	// for the report's overview; nil outside Write.
	claims *claimSink
}

// claimSink is where NoteClaims puts the claims; noted says that the
// report checks claims at all (a list may be empty).
type claimSink struct {
	claims []Claim
	noted  bool
}

// Verification is a run compared with the reference digests of its config
// (pueval verify): the verdict in one line, and whether it is a problem
// (cells that differ or are missing; a run without reference digests is
// not one).
type Verification struct {
	Line    string `json:"line,omitempty"`
	Problem bool   `json:"problem,omitempty"`
}

// NoteClaims hands the claims a paper's report checked to the report's
// overview (overview.json: how many hold, do not and were not checked), which
// the landing page of pueval reproduce-all shows. Calls add up: each claim
// is handed over once. A report that checks claims calls it even when it
// has none to hand over (the overview then counts zero, not "no claims");
// outside Write it does nothing.
func (in Input) NoteClaims(claims []Claim) {
	if in.claims != nil {
		in.claims.claims = append(in.claims.claims, claims...)
		in.claims.noted = true
	}
}

// Paper is a registered report.
type Paper struct {
	Name  string // the config's report: value, e.g. "summary"
	Title string // heading of the index page
	// Schema1Metrics: a schema-1 results directory (manifest without Report)
	// whose ok records hold any of these metric names gets this report
	// (schema 1 knew only two reports and chose between them by metric).
	Schema1Metrics []string
	// Write renders the paper's tables and figures into dir and returns the
	// HTML of its sections.
	Write func(dir string, in Input) (string, error)
}

// AnalyticFigure is a figure drawn from a paper's equations, without data.
type AnalyticFigure struct {
	Name, About string
	// Parts are the drawings a report shows for the figure, each as its own
	// image with a caption: a figure of many panels shown in groups a page
	// can show at a readable size, beside the whole (Name) as the paper lays
	// it out, which is linked. None: the report shows Name.
	Parts []FigurePart
	// Draw writes the figure's files into dir (which exists) and returns
	// their paths and notes on where the paper disagrees with its equations.
	Draw func(dir string) (files, notes []string, err error)
}

// FigurePart is one drawing of an AnalyticFigure's Parts: the base name of
// the files its Draw writes (NAME.png, .pdf, .svg) and its caption.
type FigurePart struct{ Name, Caption string }

// The registries are filled by the init functions of the paper packages
// (and of this one, for the summary); the lock only matters to tests that
// register while others look up.
var (
	mu      sync.RWMutex
	papers  = map[string]Paper{}
	figures = map[string]AnalyticFigure{}
)

// Register adds a report. It panics on an empty or duplicate name, or a nil
// Write: registration happens in init, where a clash is a programming error.
func Register(p Paper) {
	mu.Lock()
	defer mu.Unlock()
	if p.Name == "" {
		panic("report: Register with an empty name")
	}
	if p.Write == nil {
		panic(fmt.Sprintf("report: Register(%q) without a Write function", p.Name))
	}
	if _, dup := papers[p.Name]; dup {
		panic(fmt.Sprintf("report: Register called twice for %q", p.Name))
	}
	p.Schema1Metrics = slices.Clone(p.Schema1Metrics)
	papers[p.Name] = p
}

// Lookup returns the report registered under name.
func Lookup(name string) (Paper, bool) {
	mu.RLock()
	defer mu.RUnlock()
	p, ok := papers[name]
	return p, ok
}

// Names returns the names of the registered reports, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	return slices.Sorted(maps.Keys(papers))
}

// RegisterFigure adds an analytic figure. It panics on an empty or
// duplicate name, or a nil Draw.
func RegisterFigure(f AnalyticFigure) {
	mu.Lock()
	defer mu.Unlock()
	if f.Name == "" {
		panic("report: RegisterFigure with an empty name")
	}
	if f.Draw == nil {
		panic(fmt.Sprintf("report: RegisterFigure(%q) without a Draw function", f.Name))
	}
	if _, dup := figures[f.Name]; dup {
		panic(fmt.Sprintf("report: RegisterFigure called twice for %q", f.Name))
	}
	figures[f.Name] = f
}

// Figures returns the registered analytic figures, sorted by name.
func Figures() []AnalyticFigure {
	mu.RLock()
	defer mu.RUnlock()
	out := make([]AnalyticFigure, 0, len(figures))
	for _, name := range slices.Sorted(maps.Keys(figures)) {
		out = append(out, figures[name])
	}
	return out
}

func lookupFigure(name string) (AnalyticFigure, bool) {
	mu.RLock()
	defer mu.RUnlock()
	f, ok := figures[name]
	return f, ok
}

// choose returns the reports Write renders for in: the manifest's report;
// for a schema-2 manifest without one, the summary; for a schema-1
// directory (or one without a manifest, which only an older pueval or a
// hand-made directory has), every report whose Schema1Metrics occur in the
// ok records, as schema 1 rendered both papers' sections when the records
// held both papers' metrics, else the summary.
func choose(in Input) ([]Paper, error) {
	name := in.Manifest.Report
	if name == "" && in.Manifest.Schema != results.SchemaVersion {
		var out []Paper
		for _, n := range Names() {
			if p, _ := Lookup(n); holdsAny(in.Records, p.Schema1Metrics) {
				out = append(out, p)
			}
		}
		if len(out) > 0 {
			return out, nil
		}
	}
	if name == "" {
		name = SummaryName
	}
	p, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown report %q (registered: %s)", name, strings.Join(Names(), ", "))
	}
	return []Paper{p}, nil
}

// holdsAny reports whether an ok record holds one of the metrics.
func holdsAny(recs []results.Record, metrics []string) bool {
	for _, r := range recs {
		if r.Status != results.StatusOK {
			continue
		}
		for _, m := range metrics {
			if _, ok := r.Metrics[m]; ok {
				return true
			}
		}
	}
	return false
}

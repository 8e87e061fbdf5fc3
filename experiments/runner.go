package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/pusplit"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments/results"
)

// Runner runs the cells of an experiment and stores their records.
type Runner struct {
	Config *Config
	Data   *datasets.Store
	Cache  *results.ScoreCache // nil: no score cache
	// Workers is the number of cells run at once (the -j flag); 0 means 1.
	// Each cell's classifier trains its nets on all cores regardless.
	Workers int
	// Log receives progress and warnings (the terminal's stderr).
	Log io.Writer
	// CodeVersion is recorded in the manifest.
	CodeVersion string

	scorer    classifiers.Scorer
	kernel    string // the classifier's kernel, for records
	estimator classprior.Estimator
	data      map[string]*datasets.Dataset
	tradMu    sync.Mutex
	trad      map[string]*tradEntry

	trained   atomic.Int64 // classifier trainings actually run
	cacheHits atomic.Int64 // classifier trainings answered by the score cache
}

type tradEntry struct {
	once   sync.Once
	scores []float64
	work   *results.Work // nil: from the score cache
	err    error
}

// Summary is what a run did.
type Summary struct {
	Cells       int               // cells selected
	Skipped     int               // already done in an earlier run
	Ran         int               // cells run now (ok or failed)
	Failed      int               // of Ran
	Trained     int               // classifier trainings run
	CacheHits   int               // classifier trainings served by the score cache
	Unavailable map[string]string // data sets that could not be used, with the reason
	Interrupted bool
	Duration    time.Duration
}

// Run runs the cells that outDir does not hold yet (a re-run continues where
// a killed or interrupted run stopped) and writes records.jsonl and
// manifest.json there. On cancellation it stops taking cells, records
// nothing for the cells in flight, and returns an error saying how to
// continue; finished cells are never lost.
func (r *Runner) Run(ctx context.Context, cells []Cell, outDir string) (Summary, error) {
	start := time.Now()
	sum := Summary{Cells: len(cells), Unavailable: map[string]string{}}
	if err := r.prepare(); err != nil {
		return sum, err
	}
	store, err := results.OpenStore(outDir)
	if err != nil {
		return sum, err
	}
	defer store.Close()

	// Load every data set first: it fills the manifest's fingerprints and
	// turns an unavailable data set into one clear message, not a failed cell each.
	man := results.Manifest{Experiment: r.Config.Experiment, Config: r.Config.Source, ConfigHash: r.Config.Hash,
		CodeVersion: r.CodeVersion, GoVersion: runtime.Version(), Kernel: r.kernel,
		Data: map[string]string{}, Started: start.UTC(), Machine: machine()}
	var todo []Cell
	for _, c := range cells {
		name := c.Dataset.Name
		if _, bad := sum.Unavailable[name]; bad {
			continue
		}
		if _, ok := r.data[name]; !ok {
			ds, err := r.Data.Load(ctx, name)
			if err != nil {
				if errors.Is(err, datasets.ErrUnavailable) || errors.As(err, new(*datasets.MissingFileError)) {
					// The manifest (and the report) keep the short reason; the log has the full story.
					reason := err.Error()
					var ue *datasets.UnavailableError
					if errors.As(err, &ue) {
						reason = "not available: " + ue.Reason
					}
					sum.Unavailable[name] = reason
					fmt.Fprintf(r.Log, "pueval: skipping data set %s: %v\n", name, err)
					continue
				}
				return sum, fmt.Errorf("data set %s: %w", name, err)
			}
			for _, w := range ds.Warnings {
				fmt.Fprintf(r.Log, "pueval: data set %s: %s\n", name, w)
				man.Warnings = append(man.Warnings, name+": "+w)
			}
			r.addDataset(ds)
			man.Data[name] = ds.Fingerprint
		}
		if store.Done(c.ID) {
			sum.Skipped++
			continue
		}
		todo = append(todo, c)
	}
	man.Unavailable = sum.Unavailable
	man.Cells = len(cells)
	if err := results.WriteManifest(outDir, man); err != nil {
		return sum, err
	}

	prog := NewProgress(r.Log, len(cells)-countUnavailable(cells, sum.Unavailable), sum.Skipped)
	workers := max(1, r.Workers)
	jobs := make(chan Cell)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var storeErr error
	seenFailure := map[string]bool{}
	for range workers {
		wg.Go(func() {
			for c := range jobs {
				var rec results.Record
				var err error
				// Profile samples carry the data set (pueval run --cpuprofile;
				// go tool pprof -tagfocus dataset=bank).
				pprof.Do(ctx, pprof.Labels("dataset", c.Dataset.Name), func(ctx context.Context) {
					rec, err = r.RunCell(ctx, c)
				})
				if err != nil && ctx.Err() != nil {
					continue // interrupted: the cell is not finished, record nothing
				}
				if aerr := store.Append(rec); aerr != nil {
					mu.Lock()
					storeErr = errors.Join(storeErr, aerr)
					mu.Unlock()
					continue
				}
				mu.Lock()
				sum.Ran++
				if rec.Status == results.StatusFailed {
					sum.Failed++
					// One line per kind of failure: a data set whose every beta < 1 cell
					// fails the same way should not flood the log.
					kind := c.Dataset.Name + "\x00" + rec.Error
					if !seenFailure[kind] {
						seenFailure[kind] = true
						prog.Message("pueval: cell %s failed: %s (further cells of %s failing the same way are counted, not shown)",
							c.ID, rec.Error, c.Dataset.Name)
					}
				}
				mu.Unlock()
				prog.Done(c.ID, rec.Status == results.StatusFailed)
			}
		})
	}
feed:
	for _, c := range todo {
		select {
		case jobs <- c:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	sum.Trained, sum.CacheHits = int(r.trained.Load()), int(r.cacheHits.Load())
	sum.Duration = time.Since(start)
	if storeErr != nil {
		return sum, fmt.Errorf("writing records: %w", storeErr)
	}
	all := store.Records()
	for _, rec := range all {
		switch rec.Status {
		case results.StatusOK:
			man.Done++
		default:
			man.Failed++
		}
	}
	if ctx.Err() != nil {
		sum.Interrupted = true
		if err := results.WriteManifest(outDir, man); err != nil {
			return sum, err
		}
		return sum, fmt.Errorf("interrupted after %d of %d cells (finished cells are kept in %s; run the same command again to continue)",
			sum.Skipped+sum.Ran, len(cells), outDir)
	}
	order := make([]string, len(cells))
	for i, c := range cells {
		order[i] = c.ID
	}
	if err := store.Finalize(order); err != nil {
		return sum, err
	}
	done := time.Now().UTC()
	man.Finished = &done
	for name, e := range r.trad {
		if e.work != nil {
			if man.Traditional == nil {
				man.Traditional = map[string]*results.Work{}
			}
			man.Traditional[name] = e.work
		}
	}
	return sum, results.WriteManifest(outDir, man)
}

// prepare makes the classifier and the estimator and empties the data
// sets; RunCell can run once the cells' data sets are added.
func (r *Runner) prepare() error {
	var err error
	if r.scorer, err = r.Config.ClassifierCfg.New(); err != nil {
		return fmt.Errorf("classifier: %w", err)
	}
	r.kernel = KernelName(r.Config.ClassifierCfg)
	if r.estimator, err = classprior.New(r.Config.EstimatorName, r.Config.EstimatorOpts); err != nil {
		return fmt.Errorf("estimator: %w", err)
	}
	if r.Log == nil {
		r.Log = io.Discard
	}
	r.data, r.trad = map[string]*datasets.Dataset{}, map[string]*tradEntry{}
	return nil
}

// addDataset makes a loaded data set available to RunCell.
func (r *Runner) addDataset(ds *datasets.Dataset) {
	r.data[ds.Name] = ds
}

// KernelName says which compute kernel the classifier runs, for the
// manifest, the records and the start line of a run ("" when the classifier
// does not say).
func KernelName(c classifiers.Config) string {
	if k, ok := c.(interface{ KernelName() string }); ok {
		return k.KernelName()
	}
	return ""
}

func countUnavailable(cells []Cell, un map[string]string) int {
	n := 0
	for _, c := range cells {
		if _, ok := un[c.Dataset.Name]; ok {
			n++
		}
	}
	return n
}

func machine() results.Machine {
	host, _ := os.Hostname()
	return results.Machine{Host: host, OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU()}
}

// derive returns a math/rand/v2 stream for one purpose within a cell.
func derive(seed uint64, purpose string) *rand.Rand {
	return rand.New(rand.NewPCG(hashSeed(seed, purpose, "1"), hashSeed(seed, purpose, "2")))
}

// RunCell computes one cell's record. It returns an error only when ctx was
// cancelled; any other problem is a record with status failed.
func (r *Runner) RunCell(ctx context.Context, c Cell) (results.Record, error) {
	t0 := time.Now()
	rec := results.Record{Schema: results.SchemaVersion, Experiment: r.Config.Experiment, Cell: c.ID,
		Dataset: c.Dataset.Name, Grid: map[string]string{"beta": formatBeta(c.Beta)}, Repeat: c.Repeat,
		Seed: strconv.FormatUint(c.Seed, 10), Status: results.StatusOK, Timings: map[string]float64{}}
	fail := func(err error) (results.Record, error) {
		if ctx.Err() != nil {
			return rec, ctx.Err()
		}
		rec.Status, rec.Error = results.StatusFailed, err.Error()
		rec.Estimates, rec.Metrics = nil, nil
		rec.Timings["total"] = time.Since(t0).Seconds()
		return rec, nil
	}
	ds := r.data[c.Dataset.Name]
	if ds == nil {
		return fail(fmt.Errorf("data set %s is not loaded", c.Dataset.Name))
	}

	// 1. The PU split.
	var split pusplit.Split
	var err error
	rng := derive(c.Seed, "split")
	switch r.Config.Protocol.Name {
	case ProtocolAAAI2017:
		split, err = pusplit.AAAI2017(rng, ds.Y, r.Config.Labeled(c.Dataset), c.Beta, r.Config.Protocol.MaxUnlabeled)
	case ProtocolPSB2019:
		var nl, nu int
		nl, nu, err = r.Config.PSBSizesFor(c.Dataset, ds.N, ds.NPos)
		if err == nil {
			split, err = pusplit.PSB2019(rng, ds.Y, nl, nu, c.Beta)
		}
	}
	if err != nil {
		return fail(err)
	}
	rec.Sizes = results.Sizes{N: ds.N, D: ds.D, NPos: ds.NPos, Labeled: len(split.Labeled), Unlabeled: len(split.Unlabeled)}
	rec.Alpha, rec.Beta = split.Alpha(ds.Y), split.Beta(ds.Y)
	rows := append(append([]int{}, split.Labeled...), split.Unlabeled...)
	nL := len(split.Labeled)
	rec.Timings["split"] = time.Since(t0).Seconds()

	// 2. The non-traditional classifier: labeled vs unlabeled, out-of-bag scores.
	t1 := time.Now()
	pseudo := make([]bool, len(rows))
	for i := range nL {
		pseudo[i] = true
	}
	key, err := results.Key("pu-scores-v1", ds.Fingerprint, split.Labeled, split.Unlabeled, r.Config.ClassifierCfg.Key(), c.Seed)
	if err != nil {
		return fail(err)
	}
	var scores []float64
	pprof.Do(ctx, pprof.Labels("stage", "classifier"), func(ctx context.Context) {
		scores, rec.Work, err = r.score(ctx, key, ds, rows, pseudo, hashSeed(c.Seed, "classifier"))
	})
	rec.Kernel = r.kernel
	if err != nil {
		return fail(fmt.Errorf("classifier: %w", err))
	}
	rec.Timings["classifier"] = time.Since(t1).Seconds()
	truth := make([]bool, len(rows))
	for i, row := range rows {
		truth[i] = ds.Y[row]
	}

	// 3. The class prior and noise estimate.
	t2 := time.Now()
	est, estErr := r.estimator.Estimate(scores[:nL], scores[nL:], derive(c.Seed, "estimator"))
	var estimate *results.Estimate
	if estErr != nil {
		rec.Warnings = append(rec.Warnings, fmt.Sprintf("estimator %s: %v: the E estimates are missing", r.estimator.Name(), estErr))
	} else {
		estimate = &results.Estimate{Method: est.Method, Alpha: est.Alpha, Beta: est.Beta, Warnings: est.Warnings}
		rec.Estimates = map[string]results.Estimate{results.EstimateUsed: *estimate}
	}
	rec.Timings["estimator"] = time.Since(t2).Seconds()

	// 4. Metrics: PU, recovered with real and estimated (alpha, beta), and the truths.
	t3 := time.Now()
	var trad []float64
	if r.Config.Protocol.Name == ProtocolAAAI2017 && slices.Contains(r.Config.Truth, TruthTraditional) {
		tt := time.Now()
		all, err := r.traditional(ctx, ds)
		if err != nil {
			return fail(fmt.Errorf("traditional truth: %w", err))
		}
		// The first cell of a data set trains the traditional bag (or waits for it):
		// timed apart so that projections can leave it out.
		rec.Timings["traditional"] = time.Since(tt).Seconds()
		trad = make([]float64, len(split.Unlabeled))
		for i, row := range split.Unlabeled {
			trad[i] = all[row]
		}
	}
	m := measurement{cfg: r.Config, scores: scores, nL: nL, truth: truth, trad: trad,
		alpha: rec.Alpha, beta: rec.Beta, est: estimate}
	rec.Metrics, err = m.compute()
	if err != nil {
		return fail(err)
	}
	rec.Warnings = append(rec.Warnings, m.warnings...)
	rec.Timings["metrics"] = time.Since(t3).Seconds() - rec.Timings["traditional"]
	rec.Timings["total"] = time.Since(t0).Seconds()
	return rec, nil
}

// score returns the out-of-bag scores of the classifier trained on the given
// rows of ds with targets y, from the score cache when it has them.
// The work summary is nil for a cache hit.
func (r *Runner) score(ctx context.Context, key string, ds *datasets.Dataset, rows []int, y []bool, seed uint64) ([]float64, *results.Work, error) {
	if r.Cache != nil {
		s, ok, err := r.Cache.Get(key)
		if err != nil {
			fmt.Fprintf(r.Log, "pueval: score cache: %v (recomputing)\n", err)
		}
		if ok && len(s.Scores) == len(y) {
			r.cacheHits.Add(1)
			return s.Scores, nil, nil
		}
	}
	x := ds.X
	if rows != nil {
		x = gatherRows(ds.X, rows)
	}
	r.trained.Add(1)
	res, err := r.scorer.Score(ctx, classifiers.Data{X: x, Y: y}, seed)
	if err != nil {
		return nil, nil, err
	}
	if r.Cache != nil {
		if err := r.Cache.Put(key, results.Scores{Scores: res.Scores, Labels: y}); err != nil {
			fmt.Fprintf(r.Log, "pueval: score cache: %v\n", err)
		}
	}
	return res.Scores, work(res.Models), nil
}

// work summarises the models of a bag.
func work(models []classifiers.ModelStats) *results.Work {
	if len(models) == 0 {
		return nil
	}
	w := &results.Work{Models: len(models)}
	for _, m := range models {
		w.Epochs += float64(m.Epochs)
		w.TrainRows += float64(m.TrainRows)
		w.ValOnlyRows += float64(m.ValOnlyRows)
		w.Inputs += float64(m.Inputs)
		w.GFlop += m.Flops / 1e9
	}
	n := float64(len(models))
	w.Epochs, w.TrainRows, w.ValOnlyRows, w.Inputs = w.Epochs/n, w.TrainRows/n, w.ValOnlyRows/n, w.Inputs/n
	return w
}

// traditional returns the traditional-truth scores of every row of ds: the
// classifier trained once per data set (and experiment seed) on all rows with
// the true labels, scored out of bag. Concurrent cells wait for one training.
func (r *Runner) traditional(ctx context.Context, ds *datasets.Dataset) ([]float64, error) {
	r.tradMu.Lock()
	e := r.trad[ds.Name]
	if e == nil {
		e = &tradEntry{}
		r.trad[ds.Name] = e
	}
	r.tradMu.Unlock()
	e.once.Do(func() {
		seed := hashSeed(r.Config.Seed, "traditional", ds.Name)
		key, err := results.Key("traditional-scores-v1", ds.Fingerprint, r.Config.ClassifierCfg.Key(), seed)
		if err != nil {
			e.err = err
			return
		}
		pprof.Do(ctx, pprof.Labels("stage", "traditional"), func(ctx context.Context) {
			e.scores, e.work, e.err = r.score(ctx, key, ds, nil, ds.Y, seed)
		})
	})
	return e.scores, e.err
}

func gatherRows(x *mat.Dense, rows []int) *mat.Dense {
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		out.SetRow(i, x.RawRowView(r))
	}
	return out
}

// finite reports whether x is a number JSON can hold.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

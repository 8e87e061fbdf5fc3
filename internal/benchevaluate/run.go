package benchevaluate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/evaluate"
)

// Schema names the version of the JSON form of a [Result].
const Schema = "pueval.bench-evaluate/1"

// DefaultBootstrap is pueval evaluate's default number of resamples.
const DefaultBootstrap = 200

// Options configure [Run].
type Options struct {
	Design Design
	// Seed is the one seed every split, model and evaluation derives its
	// streams from.
	Seed uint64
	// Bootstrap is evaluate's number of resamples (DefaultBootstrap when 0).
	Bootstrap int
	// AloneMaxRows is the largest case evaluated once more per estimator
	// with that estimator alone (its own interval); 0: none.
	AloneMaxRows int
	// Workers is the number of cases run at once (at least 1); it changes
	// no number.
	Workers int
	// Cache holds the scores between runs.
	Cache Cache
	// Load returns a catalogued data set (Store.LoadShared).
	Load func(ctx context.Context, name string) (*datasets.Dataset, error)
	// Keep, when set, selects the cases to run.
	Keep func(Case) bool
	// Log, when set, gets a line per finished step.
	Log io.Writer
	// Grid adds each case's recovered numbers on a grid of priors around
	// the estimated ones (CaseResult.Grid).
	Grid bool
}

// Result is a benchmark run: its settings and every case's numbers.
type Result struct {
	Schema       string       `json:"schema"`
	Recipe       string       `json:"recipe"`
	Design       string       `json:"design"`
	Seed         uint64       `json:"seed"`
	Bootstrap    int          `json:"bootstrap"`
	AloneMaxRows int          `json:"alone_max_rows"`
	Cases        []CaseResult `json:"cases"`
}

// CaseResult is one case's truth and evaluations.
type CaseResult struct {
	ID string `json:"id"`
	Case
	NL int `json:"n_labeled"`
	NU int `json:"n_unlabeled"`
	// Alpha and Beta are the sample's true fractions of positives in U
	// and L; Truth the true numbers of the model's scores (evaluate's
	// Truth: AUC and AUC-PR on U, the best accuracy, balanced accuracy,
	// F1 and MCC on L u U).
	Alpha float64           `json:"alpha"`
	Beta  float64           `json:"beta"`
	Truth evaluate.Headline `json:"truth"`
	// Estimated is evaluate with its default estimators (the first gives
	// the priors), Given with the true alpha and beta, Alone with each
	// estimator alone (AloneMaxRows).
	Estimated *RunResult  `json:"estimated,omitempty"`
	Given     *RunResult  `json:"given,omitempty"`
	Alone     []RunResult `json:"alone,omitempty"`
	// Grid holds the recovered numbers on a grid of priors around the
	// estimated ones (Options.Grid).
	Grid *PriorGrid `json:"grid,omitempty"`
	// Error says why the case has no numbers.
	Error   string  `json:"error,omitempty"`
	Seconds Seconds `json:"seconds"`
}

// Seconds are a case's timings: training (0 when the scores were cached)
// and each evaluation. They are the only numbers that vary between runs.
type Seconds struct {
	Scores    float64 `json:"scores"`
	Estimated float64 `json:"estimated"`
	Given     float64 `json:"given"`
	Alone     float64 `json:"alone"`
}

// RunResult is one evaluate.Run's numbers.
type RunResult struct {
	// Mode is "estimated", "given" or "alone:<estimator>".
	Mode       string                     `json:"mode"`
	Priors     evaluate.Priors            `json:"priors"`
	Metrics    evaluate.Metrics           `json:"metrics"`
	Estimators []evaluate.EstimatorResult `json:"estimators"`
	Warnings   []evaluate.Warning         `json:"warnings"`
	Used       int                        `json:"bootstrap_used"`
	Failed     int                        `json:"bootstrap_failed"`
}

// Run builds (or reads from the cache) every case's scores, evaluates
// them, and returns the cases' numbers sorted by ID: the same for any
// Workers.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if opts.Bootstrap == 0 {
		opts.Bootstrap = DefaultBootstrap
	}
	if opts.Workers < 1 {
		return nil, fmt.Errorf("bench-evaluate: %d workers: want at least 1", opts.Workers)
	}
	data, counts, err := loadData(ctx, opts)
	if err != nil {
		return nil, err
	}
	cases, err := opts.Design.Cases(counts)
	if err != nil {
		return nil, fmt.Errorf("bench-evaluate: %w", err)
	}
	if opts.Keep != nil {
		cases = slices.DeleteFunc(cases, func(c Case) bool { return !opts.Keep(c) })
	}
	if len(cases) == 0 {
		return nil, errors.New("bench-evaluate: no case selected")
	}
	res := &Result{Schema: Schema, Recipe: RecipeVersion, Design: opts.Design.Name, Seed: opts.Seed,
		Bootstrap: opts.Bootstrap, AloneMaxRows: opts.AloneMaxRows, Cases: make([]CaseResult, len(cases))}
	scored, err := scoreAll(ctx, cases, data, opts)
	if err != nil {
		return nil, err
	}
	var done atomic.Int64
	err = parallel(ctx, opts.Workers, bySize(cases), func(i int) error {
		c := cases[i]
		res.Cases[i] = evaluateCase(ctx, c, scored[c.scoresID()], opts)
		s := res.Cases[i].Seconds
		opts.log("evaluated %d/%d: %s (%.1f s)", done.Add(1), len(cases), c.ID(), s.Estimated+s.Given+s.Alone)
		return ctx.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("bench-evaluate: %w", err)
	}
	return res, nil
}

func (o Options) log(format string, a ...any) {
	if o.Log != nil {
		fmt.Fprintf(o.Log, "bench-evaluate: "+format+"\n", a...)
	}
}

// loadData loads the design's data sets and counts their classes.
func loadData(ctx context.Context, opts Options) (map[string]*datasets.Dataset, map[string]ClassCounts, error) {
	data := map[string]*datasets.Dataset{}
	counts := map[string]ClassCounts{}
	for _, name := range opts.Design.Real {
		if opts.Load == nil {
			return nil, nil, fmt.Errorf("bench-evaluate: design %s reads data set %s and no loader was given", opts.Design.Name, name)
		}
		d, err := opts.Load(ctx, name)
		if err != nil {
			return nil, nil, fmt.Errorf("bench-evaluate: data set %s: %w", name, err)
		}
		data[name] = d
		counts[name] = ClassCounts{Pos: d.NPos, Neg: d.N - d.NPos}
	}
	return data, counts, nil
}

// bySize orders case indices largest first (ties by index), so the long
// cases start early and the workers finish together.
func bySize(cases []Case) []int {
	idx := make([]int, len(cases))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cases[b].N - cases[a].N })
	return idx
}

// parallel runs f on every index in order on w goroutines, and returns
// the first error (after which no new index starts).
func parallel(ctx context.Context, w int, order []int, f func(int) error) error {
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	for range w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(order) || first != nil || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				i := order[next]
				next++
				mu.Unlock()
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// scoreJob is a split's scores from one model, shared by its scales.
type scoreJob struct {
	c      Case
	scored Scored
	err    error
	secs   float64
}

// scoreAll returns every case's scores by scoresID, from the cache or
// trained (and then cached; a damaged cache file is built again). A split
// or model that fails keeps its error in its job, which its cases report
// (evaluateCase); only a cancelled context or a cache that cannot be
// written stops the run.
func scoreAll(ctx context.Context, cases []Case, data map[string]*datasets.Dataset, opts Options) (map[string]*scoreJob, error) {
	jobs := map[string]*scoreJob{}
	var list []Case
	for _, c := range cases {
		if _, ok := jobs[c.scoresID()]; !ok {
			jobs[c.scoresID()] = &scoreJob{c: c}
			list = append(list, c)
		}
	}
	var done atomic.Int64
	err := parallel(ctx, opts.Workers, bySize(list), func(i int) error {
		j := jobs[list[i].scoresID()]
		start := time.Now()
		recipe, err := recipeOf(j.c, data, opts.Seed)
		if err != nil {
			return err
		}
		s, ok, err := opts.Cache.Get(recipe)
		if ok {
			j.scored = s
			done.Add(1)
			return nil
		}
		if err != nil {
			opts.log("%v: building the scores again", err)
		}
		s, err = buildScores(ctx, j.c, data, opts.Seed)
		if ctx.Err() != nil {
			return fmt.Errorf("bench-evaluate: %w", context.Cause(ctx))
		}
		if err != nil {
			done.Add(1)
			j.err = fmt.Errorf("%s: %w", j.c.scoresID(), err)
			opts.log("scores of %s failed: %v", j.c.scoresID(), err)
			return nil
		}
		j.scored, j.secs = s, time.Since(start).Seconds()
		opts.log("scored %d/%d: %s (%.1f s)", done.Add(1), len(list), j.c.scoresID(), j.secs)
		return opts.Cache.Put(recipe, s)
	})
	if err != nil {
		return nil, fmt.Errorf("bench-evaluate: %w", err)
	}
	return jobs, nil
}

// recipeOf is the cache key of a case's scores: everything they depend on.
func recipeOf(c Case, data map[string]*datasets.Dataset, seed uint64) (string, error) {
	key, err := modelKey(c.Model)
	if err != nil {
		return "", err
	}
	src := "synth.Gaussian"
	if _, ok := parseSynth(c.Source); !ok {
		d, ok := data[c.Source]
		if !ok {
			return "", fmt.Errorf("case %s: data set %s not loaded", c.ID(), c.Source)
		}
		src = "dataset " + d.Fingerprint
	}
	return strings.Join([]string{RecipeVersion, fmt.Sprintf("seed %d", seed), c.scoresID(), src, key}, "\n"), nil
}

// buildScores draws the case's split and trains its model.
func buildScores(ctx context.Context, c Case, data map[string]*datasets.Dataset, seed uint64) (Scored, error) {
	rng := stream(seed, "split", c.Split.ID())
	var (
		s   Sample
		err error
	)
	if src, ok := parseSynth(c.Source); ok {
		s, err = SynthSample(src, c.Split, rng)
	} else {
		d := data[c.Source]
		s, err = RealSample(d.X, d.Y, c.Split, rng)
	}
	if err != nil {
		return Scored{}, err
	}
	scores, err := heldOutScores(ctx, c.Model, s, seedOf(seed, "model", c.scoresID()))
	if err != nil {
		return Scored{}, fmt.Errorf("training %s: %w", c.Model, err)
	}
	return Scored{Scores: scores, Labeled: s.Labeled, Truth: s.Truth}, nil
}

// evaluateCase runs evaluate on a case: with estimated priors, with the
// true ones, and (up to AloneMaxRows) with each estimator alone. Every run
// has the same evaluate seed, so the same bootstrap resamples: the
// comparisons between runs, and between the scales of one split and
// model, are paired.
func evaluateCase(ctx context.Context, c Case, job *scoreJob, opts Options) CaseResult {
	out := CaseResult{ID: c.ID(), Case: c}
	out.Seconds.Scores = job.secs
	if job.err != nil {
		out.Error = job.err.Error()
		return out
	}
	sc := job.scored
	counts := c.Counts()
	out.NL, out.NU, out.Alpha, out.Beta = counts.NL(), counts.NU(), counts.Alpha(), counts.Beta()
	scores, err := Rescale(sc.Scores, c.Scale)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	in := evaluate.Input{Scores: scores, Labeled: sc.Labeled, Truth: sc.Truth}
	base := evaluate.Options{Bootstrap: opts.Bootstrap, Seed: seedOf(opts.Seed, "evaluate", c.scoresID()), Workers: 1}
	var errs []string
	run := func(mode string, o evaluate.Options, secs *float64) *RunResult {
		start := time.Now()
		r, err := evaluate.Run(ctx, in, o)
		*secs += time.Since(start).Seconds()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", mode, err))
			return nil
		}
		if r.Truth != nil {
			out.Truth = r.Truth.Headline
		}
		return runResult(mode, r)
	}
	out.Estimated = run("estimated", base, &out.Seconds.Estimated)
	if opts.Grid && out.Estimated != nil {
		if out.Grid, err = priorGrid(ctx, scores, sc.Labeled, out.Estimated.Priors); err != nil {
			errs = append(errs, fmt.Sprintf("grid: %v", err))
		}
	}
	given := base
	given.Priors = &evaluate.GivenPriors{Alpha: out.Alpha, Beta: out.Beta}
	out.Given = run("given", given, &out.Seconds.Given)
	if c.N <= opts.AloneMaxRows {
		for _, name := range evaluate.Applicable(false) {
			alone := base
			alone.Estimators = []string{name}
			if r := run("alone:"+name, alone, &out.Seconds.Alone); r != nil {
				out.Alone = append(out.Alone, *r)
			}
		}
	}
	out.Error = strings.Join(errs, "; ")
	return out
}

// runResult keeps what the benchmark reads of an evaluate result (the
// curves are left out).
func runResult(mode string, r *evaluate.Result) *RunResult {
	rr := &RunResult{Mode: mode, Priors: r.Priors, Metrics: r.Metrics, Estimators: r.Estimators, Warnings: r.Warnings}
	if b := r.Bootstrap; b != nil {
		rr.Used, rr.Failed = b.Used, b.Failed
	}
	return rr
}

package distcurve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
)

// Recipe is the training-data recipe of the published generateTrainSamples.py
// (Zeiberg, Jain, Radivojac 2020):
// Beta parameter sets are drawn as
//
//	a0 ~ U(2, 100), b0 = a0 U(1, 10), a1 = a0 (1 + Beta(.5, .5)), b1 = b0 (1 + Beta(.5, .5)),
//
// a set is accepted only while its Yang-2019 distance bin (Bins bins on
// [0, 1)) holds fewer than Curves/Bins curves, and each accepted set yields
// SamplesPerSet samples, each with its own sizes and prior:
//
//	|M| ~ U{MixtureMin..MixtureMax}, |C| ~ U{ComponentMin..ComponentMax}, alpha ~ U(AlphaMin, AlphaMax),
//	mixture point ~ Beta(a1, b1) with probability alpha, else Beta(a0, b0); component point ~ Beta(a1, b1).
//
// Generation stops once Curves curves exist (the last set may overshoot by
// up to SamplesPerSet - 1, as in the published script).
type Recipe struct {
	Curves        int // total number of curves (the script's trainSetSize)
	SamplesPerSet int // samples per accepted parameter set (10)
	Bins          int // distance bins on [0, 1) (100)
	YangDraws     int // Monte-Carlo draws per side for the distance (1,000)
	MixtureMin    int // smallest |M| (1,000)
	MixtureMax    int // largest |M|, inclusive (9,999)
	ComponentMin  int // smallest |C| (100)
	ComponentMax  int // largest |C|, inclusive (4,999)
	AlphaMin      float64
	AlphaMax      float64
	Repeats       int // L of the curve (10)
	// MaxDraws bounds the parameter draws of the acceptance loop (0: 2,000
	// per accepted set needed); exceeding it is an error naming the bins.
	MaxDraws int
}

// DefaultRecipe returns the published recipe for the given number of curves.
func DefaultRecipe(curves int) Recipe {
	return Recipe{
		Curves:        curves,
		SamplesPerSet: 10,
		Bins:          100,
		YangDraws:     1000,
		MixtureMin:    1000,
		MixtureMax:    9999,
		ComponentMin:  100,
		ComponentMax:  4999,
		AlphaMin:      0.01,
		AlphaMax:      1,
		Repeats:       DefaultRepeats,
	}
}

// Validate reports the first bad field.
func (r Recipe) Validate() error {
	switch {
	case r.Curves < 1:
		return fmt.Errorf("distcurve: recipe: curves %d < 1", r.Curves)
	case r.SamplesPerSet < 1:
		return fmt.Errorf("distcurve: recipe: samples per set %d < 1", r.SamplesPerSet)
	case r.Bins < 1:
		return fmt.Errorf("distcurve: recipe: bins %d < 1", r.Bins)
	case r.YangDraws < 1:
		return fmt.Errorf("distcurve: recipe: yang draws %d < 1", r.YangDraws)
	case r.MixtureMin < 1 || r.MixtureMax < r.MixtureMin:
		return fmt.Errorf("distcurve: recipe: mixture sizes [%d, %d]", r.MixtureMin, r.MixtureMax)
	case r.ComponentMin < 1 || r.ComponentMax < r.ComponentMin:
		return fmt.Errorf("distcurve: recipe: component sizes [%d, %d]", r.ComponentMin, r.ComponentMax)
	case !(r.AlphaMin >= 0 && r.AlphaMax <= 1 && r.AlphaMin <= r.AlphaMax):
		return fmt.Errorf("distcurve: recipe: alpha range [%v, %v]", r.AlphaMin, r.AlphaMax)
	case r.Repeats < 1:
		return fmt.Errorf("distcurve: recipe: repeats %d < 1", r.Repeats)
	case r.MaxDraws < 0:
		return fmt.Errorf("distcurve: recipe: max draws %d < 0", r.MaxDraws)
	}
	return nil
}

// ParamSet is one accepted pair of Beta distributions: negatives Beta(A0, B0)
// and positives (the component) Beta(A1, B1).
type ParamSet struct {
	A0, B0, A1, B1 float64
	Distance       float64 // Yang-2019 Eq. 7 distance (Monte-Carlo)
	Bin            int
	// MinRatio is inf_x f0(x)/f1(x) (capped at 1): the mixture's largest
	// identifiable component proportion is alpha + (1 - alpha) MinRatio, so
	// alpha itself is identifiable only where MinRatio = 0 (never for the
	// recipe's Beta pairs, whose positives are the more concentrated).
	MinRatio float64
	Seed     uint64 // seed of the set's samples
}

// Sample is one simulated PU sample.
type Sample struct {
	Params    ParamSet
	Alpha     float64 // true fraction of positives in the mixture's generating law
	Component []float64
	Mixture   []float64
}

// Example is a training pair: a distance curve and its target alpha.
type Example struct {
	Curve    []float64
	Alpha    float64
	Distance float64 // Yang distance of the example's parameter set (diagnostics)
	// AlphaPlus is the identifiable proportion alpha + (1 - alpha) MinRatio
	// (diagnostics).
	AlphaPlus float64
}

// DrawParams draws one parameter set of the recipe (Distance, Bin and Seed
// left zero).
func DrawParams(rng *rand.Rand) ParamSet {
	a0 := 2 + 98*rng.Float64()
	b0 := a0 * (1 + 9*rng.Float64())
	half := distuv.Beta{Alpha: 0.5, Beta: 0.5, Src: rng}
	a1 := a0 * (1 + half.Rand())
	b1 := b0 * (1 + half.Rand())
	return ParamSet{A0: a0, B0: b0, A1: a1, B1: b1, MinRatio: minRatio(a0, b0, a1, b1)}
}

// minRatio is inf over (0, 1) of Beta(a0, b0)/Beta(a1, b1) densities,
// capped at 1, for a1 >= a0 and b1 >= b0: log f0/f1 = const + (a0 - a1) log x
// + (b0 - b1) log(1 - x) is convex with its minimum at
// x* = (a1 - a0)/((a1 - a0) + (b1 - b0)) (at an end when a difference is 0).
func minRatio(a0, b0, a1, b1 float64) float64 {
	da, db := a1-a0, b1-b0
	if da < 0 || db < 0 {
		return 0 // a tail of f1 outweighs f0: infimum 0
	}
	l0, _ := math.Lgamma(a0 + b0)
	l1, _ := math.Lgamma(a1 + b1)
	ga0, _ := math.Lgamma(a0)
	gb0, _ := math.Lgamma(b0)
	ga1, _ := math.Lgamma(a1)
	gb1, _ := math.Lgamma(b1)
	lr := (l0 - ga0 - gb0) - (l1 - ga1 - gb1)
	switch {
	case da == 0 && db == 0:
	case da == 0: // minimum as x -> 0
	case db == 0: // minimum as x -> 1
	default:
		x := da / (da + db)
		lr += -da*math.Log(x) - db*math.Log1p(-x)
	}
	return math.Min(1, math.Exp(lr))
}

// YangDistance is the Monte-Carlo estimate of the distance of Yang, Jiang,
// Mathews et al. (Data Min Knowl Disc 33:995, 2019, Eq. 7, p = 1) between
// f0 = Beta(a0, b0) and f1 = Beta(a1, b1), with n draws from each:
//
//	d = (mean_{x~f0} (1 - f1/f0)+ + mean_{x~f1} (1 - f0/f1)+) / (mean_{all 2n x} max(f0, f1)/((f0 + f1)/2)),
//
// an estimate of 2 TV/(1 + TV), TV the total variation distance; d is in
// [0, 1].
func YangDistance(a0, b0, a1, b1 float64, n int, rng *rand.Rand) float64 {
	d0 := distuv.Beta{Alpha: a0, Beta: b0, Src: rng}
	d1 := distuv.Beta{Alpha: a1, Beta: b1, Src: rng}
	l0 := betaLogPDF(a0, b0)
	l1 := betaLogPDF(a1, b1)
	var num0, num1, den float64
	for range n {
		x := d0.Rand()
		lr := l1(x) - l0(x) // log f1/f0
		num0 += math.Max(0, -math.Expm1(lr))
		den += 2 / (1 + math.Exp(-math.Abs(lr)))
	}
	for range n {
		x := d1.Rand()
		lr := l0(x) - l1(x) // log f0/f1
		num1 += math.Max(0, -math.Expm1(lr))
		den += 2 / (1 + math.Exp(-math.Abs(lr)))
	}
	return (num0/float64(n) + num1/float64(n)) / (den / float64(2*n))
}

// betaLogPDF returns the log density of Beta(a, b) on (0, 1).
func betaLogPDF(a, b float64) func(float64) float64 {
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	lnorm := lab - la - lb
	return func(x float64) float64 {
		return lnorm + (a-1)*math.Log(x) + (b-1)*math.Log1p(-x)
	}
}

// ParamSets runs the stratified acceptance loop of the recipe on the stream
// seeded by seed and returns the accepted sets in order.
func (r Recipe) ParamSets(seed uint64) ([]ParamSet, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x64697374637276)) // "distcrv"
	capacity := float64(r.Curves) / float64(r.Bins)
	fill := make([]int, r.Bins)
	maxDraws := r.MaxDraws
	need := (r.Curves + r.SamplesPerSet - 1) / r.SamplesPerSet
	if maxDraws == 0 {
		maxDraws = 2000 * need
	}
	var sets []ParamSet
	total := 0
	for draws := 0; total < r.Curves; draws++ {
		if draws >= maxDraws {
			return nil, fmt.Errorf("distcurve: recipe: %d parameter draws filled only %d of %d curves (bin fill %v)", draws, total, r.Curves, fill)
		}
		ps := DrawParams(rng)
		ps.Distance = YangDistance(ps.A0, ps.B0, ps.A1, ps.B1, r.YangDraws, rng)
		ps.Bin = min(max(int(math.Floor(ps.Distance*float64(r.Bins))), 0), r.Bins-1)
		if float64(fill[ps.Bin]) >= capacity {
			continue
		}
		ps.Seed = rng.Uint64()
		fill[ps.Bin] += r.SamplesPerSet
		total += r.SamplesPerSet
		sets = append(sets, ps)
	}
	return sets, nil
}

// Sample draws the k-th sample of a parameter set from the stream seeded by
// (ps.Seed, k), and returns it with that stream positioned for the curve's
// draws. The size and alpha fields of r must be valid ([Recipe.Validate])
// and the shapes of ps positive (distuv panics otherwise).
func (r Recipe) Sample(ps ParamSet, k int) (Sample, *rand.Rand) {
	rng := rand.New(rand.NewPCG(ps.Seed, uint64(k)))
	nm := r.MixtureMin + rng.IntN(r.MixtureMax-r.MixtureMin+1)
	nc := r.ComponentMin + rng.IntN(r.ComponentMax-r.ComponentMin+1)
	alpha := r.AlphaMin + (r.AlphaMax-r.AlphaMin)*rng.Float64()
	neg := distuv.Beta{Alpha: ps.A0, Beta: ps.B0, Src: rng}
	pos := distuv.Beta{Alpha: ps.A1, Beta: ps.B1, Src: rng}
	s := Sample{Params: ps, Alpha: alpha, Mixture: make([]float64, nm), Component: make([]float64, nc)}
	for i := range s.Mixture {
		if rng.Float64() < alpha {
			s.Mixture[i] = pos.Rand()
		} else {
			s.Mixture[i] = neg.Rand()
		}
	}
	for i := range s.Component {
		s.Component[i] = pos.Rand()
	}
	return s, rng
}

// Generate builds the recipe's examples for seed: the parameter sets
// sequentially, then the samples and their curves on workers goroutines
// (< 1: GOMAXPROCS). The result does not depend on workers. A cancelled ctx
// stops it with an error wrapping its cause.
func (r Recipe) Generate(ctx context.Context, seed uint64, workers int) ([]Example, error) {
	sets, err := r.ParamSets(seed)
	if err != nil {
		return nil, err
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	n := len(sets) * r.SamplesPerSet
	out := make([]Example, n)
	errs := make([]error, n)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				s, rng := r.Sample(sets[j/r.SamplesPerSet], j%r.SamplesPerSet)
				c, err := Curve(s.Component, s.Mixture, r.Repeats, rng)
				if err != nil {
					errs[j] = fmt.Errorf("distcurve: example %d: %w", j, err)
					continue
				}
				out[j] = Example{Curve: c, Alpha: s.Alpha, Distance: s.Params.Distance, AlphaPlus: s.Alpha + (1-s.Alpha)*s.Params.MinRatio}
			}
		}()
	}
	var cerr error
feed:
	for j := range n {
		select {
		case <-ctx.Done():
			cerr = fmt.Errorf("distcurve: generate: %w", context.Cause(ctx))
			break feed
		case jobs <- j:
		}
	}
	close(jobs)
	wg.Wait()
	if cerr != nil {
		return nil, cerr
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

package evaluate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/internal/interrupt"
	"github.com/pueval/pueval/metrics"
)

// materialize returns the scores and labels of a tally over r's
// thresholds: each threshold's score once per labeled and unlabeled draw.
func materialize(r *metrics.Ranking, t recovery.Tally) ([]float64, []bool) {
	var scores []float64
	var labels []bool
	for k := 1; k < len(t.L); k++ {
		for range t.L[k] {
			scores, labels = append(scores, r.Threshold(k)), append(labels, true)
		}
		for range t.U[k] {
			scores, labels = append(scores, r.Threshold(k)), append(labels, false)
		}
	}
	return scores, labels
}

// bitsEqual reports whether two slices hold the same bits.
func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// A resample's numbers are, bit for bit, what the ranking of its own
// draws gives: the draws' scores ranked again (metrics.Rank), recovery.New
// on them, Algorithm 1's curve and its AUC, Eq. 4, the PR curve read off
// the ROC curve and its area, every measure's maximum, both curves on the
// band grid; with estimated priors, the estimator on the resample's first
// draws. So the rank-based resample (counts per threshold, no sort of the
// scores) computes what resampling the scores and sorting them would, on
// the same draws. On scores with ties and without, given and estimated
// priors, both Outside modes, more rows than the estimator reads. The
// measures at a threshold of the caller's are those of the draws'
// confusion matrix at it, recovered (Eqs. 1-2, then PSB-2019 Eqs. 4-8).
func TestResampleIsRecoveryOfItsDraw(t *testing.T) {
	scores, labeled, _ := puScores(t, 21, 1.5, 0.3, 0.9, 700, 4300)
	tied := slices.Clone(scores)
	for i, s := range tied {
		tied[i] = math.Round(s*20) / 20
	}
	for _, c := range []struct {
		name    string
		scores  []float64
		method  string
		outside recovery.Outside
	}{
		{"given priors", scores, "", recovery.Drop},
		{"ties, clip", tied, "", recovery.Clip},
		{"estimated", scores, classprior.AlphaMaxNName, recovery.Drop},
		{"ties, estimated, clip", tied, classprior.AlphaMaxNName, recovery.Clip},
	} {
		in := Input{Scores: c.scores, Labeled: labeled}
		r, err := metrics.Rank(c.scores, labeled)
		if err != nil {
			t.Fatal(err)
		}
		thr := 1.05
		opts := Options{Seed: 5, Outside: c.outside, EstimatorMaxRows: 2000, Threshold: &thr}.withDefaults()
		s, err := newResampler(context.Background(), r, in, c.method, 0.32, 0.88, opts)
		if err != nil {
			t.Fatal(err)
		}
		var sc scratch
		for b := range 4 {
			got, err := s.resample(context.Background(), b, &sc)
			if err != nil {
				t.Fatal(err)
			}
			want := referenceResample(t, r, s, &sc, b)
			if !sameResample(got, want) {
				t.Errorf("%s, resample %d:\n got %+v\nwant %+v", c.name, b, got, want)
			}
		}
	}
}

// referenceResample computes resample b from the draws in sc the slow
// way: the drawn scores ranked, the recovery built on them, the estimate
// by the estimator evaluate runs (classprior.Recommended).
func referenceResample(t *testing.T, r *metrics.Ranking, s *Resampler, sc *scratch, b int) resampleResult {
	t.Helper()
	want := resampleResult{alpha: s.alpha, beta: s.beta}
	if s.method != "" {
		if len(sc.estL) != s.mL || len(sc.estU) != s.mU {
			t.Fatalf("the estimator read %d and %d draws, want %d and %d", len(sc.estL), len(sc.estU), s.mL, s.mU)
		}
		est, err := classprior.Recommended(s.method)
		if err != nil {
			t.Fatal(err)
		}
		e, err := est.New()
		if err != nil {
			t.Fatal(err)
		}
		got, err := e.Estimate(context.Background(), classprior.Input{Labeled: sc.estL, Unlabeled: sc.estU}, stream(s.opts.Seed, tagResampleEstimator, uint64(b)))
		if err != nil {
			t.Fatal(err)
		}
		want.estimated, want.alpha, want.beta = true, got.Alpha, got.Beta
	}
	drawn, labels := materialize(r, sc.tally)
	if len(drawn) != r.N() {
		t.Fatalf("%d draws, want %d", len(drawn), r.N())
	}
	r2, err := metrics.Rank(drawn, labels)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := recovery.New(r2, want.alpha, want.beta)
	if err != nil {
		t.Fatal(err)
	}
	o := s.opts.Outside
	roc := rc.ROC(o)
	pr := rc.PRFromROC(roc)
	want.ok, want.auc, want.direct = true, metrics.TrapezoidAUC(roc), rc.DirectAUC()
	want.aucpr = recovery.AreaUnder(pr, recovery.DefaultPRArea)
	for i, m := range recovery.Measures {
		want.measures[i] = rc.Max(m).Value
	}
	rocXY, prXY := xy{}, xy{}
	for _, p := range roc {
		rocXY.x, rocXY.y = append(rocXY.x, p.FPR), append(rocXY.y, p.TPR)
	}
	rmax := math.Inf(-1)
	for _, p := range pr {
		rmax = max(rmax, p.Recall) // the band reads the recall as its running maximum
		prXY.x, prXY.y = append(prXY.x, rmax), append(prXY.y, p.Precision)
	}
	want.roc, want.pr = rocXY.curve().grid(), prXY.curve().grid()
	if thr := s.opts.Threshold; thr != nil {
		want.at, want.hasAt = atThresholdOfDraws(t, r2, rc.Pi(), want.alpha, want.beta, *thr), true
	}
	return want
}

// atThresholdOfDraws recovers the measures of the ranking of the draws, r2,
// at threshold thr: the recovered rates of its PU rates there (Eqs. 1-2)
// in PSB-2019 Eqs. 4-8, clipped.
func atThresholdOfDraws(t *testing.T, r2 *metrics.Ranking, pi, alpha, beta, thr float64) [len(recovery.Measures)]float64 {
	t.Helper()
	c := r2.ConfusionAt(thr)
	g, e, err := recovery.RecoverRates(float64(c.TP)/float64(r2.Positives()), float64(c.FP)/float64(r2.Negatives()), alpha, beta)
	if err != nil {
		t.Fatal(err)
	}
	x := recovery.Rates{Gamma: g, Eta: e, Pi: pi, Theta: float64(c.TP+c.FP) / float64(r2.N())}
	var out [len(recovery.Measures)]float64
	for i, m := range recovery.Measures {
		out[i] = m.Clip(m.Of(x))
	}
	return out
}

// sameResample compares two resamples bit for bit.
func sameResample(a, b resampleResult) bool {
	return a.ok == b.ok && a.estimated == b.estimated &&
		bitsEqual([]float64{a.alpha, a.beta, a.auc, a.direct, a.aucpr}, []float64{b.alpha, b.beta, b.auc, b.direct, b.aucpr}) &&
		bitsEqual(a.measures[:], b.measures[:]) && bitsEqual(a.roc, b.roc) && bitsEqual(a.pr, b.pr) &&
		a.hasAt == b.hasAt && bitsEqual(a.at[:], b.at[:])
}

// Every draw of a resample is a uniform row, independently: over 4,000
// resamples of 10,000 labeled rows (two full blocks of 4,096 rows and a
// partial one) and 13,000 unlabeled ones (three and a partial one), each
// row's count is
// Binomial(n, 1/n) (the exact multinomial margin): its total over the
// resamples is within 6 standard deviations of their number, its mean is
// 1 in every block, and the frequencies of the counts 0, 1,
// 2, 3 and more match the binomial's (chi-square, 4 degrees of freedom,
// below its 0.999 quantile 18.47). The first draws, the estimator's, are
// uniform rows too: the mean of their scores' ranks is half the rows.
func TestResampleDrawsAreUniform(t *testing.T) {
	const nL, nU, resamples = 10_000, 13_000, 4000
	scores := make([]float64, nL+nU)
	labeled := make([]bool, nL+nU)
	for i := range scores {
		scores[i] = float64(i) // distinct: a row is a threshold
		labeled[i] = i < nL
	}
	r, err := metrics.Rank(scores, labeled)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Seed: 8, EstimatorMaxRows: 1000}.withDefaults()
	s, err := newResampler(context.Background(), r, Input{Scores: scores, Labeled: labeled}, classprior.AlphaMaxNName, 0.3, 0.9, opts)
	if err != nil {
		t.Fatal(err)
	}
	var sc scratch
	var freq [2][4]float64
	var blockSum [2][4]float64
	rowSum := [2][]float64{make([]float64, nL), make([]float64, nU)}
	var estRank float64
	for b := range resamples {
		if err := s.draw(context.Background(), b, &sc); err != nil {
			t.Fatal(err)
		}
		for side, counts := range [][]uint32{sc.tally.L, sc.tally.U} {
			// Row j of the side, in ranking order, is its own threshold.
			for j, k := range [][]int32{s.lGroup, s.uGroup}[side] {
				c := counts[k]
				freq[side][min(c, 3)]++
				blockSum[side][j>>blockBits] += float64(c)
				rowSum[side][j] += float64(c)
			}
		}
		for _, x := range sc.estL {
			estRank += x
		}
	}
	for side, n := range []float64{nL, nU} {
		chi2 := 0.0
		for c, f := range freq[side] {
			e := binomialTail(int(n), 1/n, c) * n * resamples
			chi2 += (f - e) * (f - e) / e
		}
		if chi2 > 18.47 {
			t.Errorf("side %d: count frequencies %v, chi-square %.1f against Binomial(n, 1/n)", side, freq[side], chi2)
		}
		// Each row's total over the resamples: mean resamples, variance
		// resamples (1 - 1/n); none beyond 6 standard deviations (a false
		// alarm on one of 23,000 rows about once in 20,000 runs).
		for j, sum := range rowSum[side] {
			if z := (sum - resamples) / math.Sqrt(resamples*(1-1/n)); math.Abs(z) > 6 {
				t.Errorf("side %d, row %d: drawn %v times in %d resamples (z = %.1f)", side, j, sum, resamples, z)
				break
			}
		}
		for blk, sum := range blockSum[side] {
			rows := math.Min(4096, n-float64(blk)*4096)
			if rows <= 0 {
				continue
			}
			// The mean of rows*resamples counts of variance about 1.
			if mean := sum / (rows * resamples); math.Abs(mean-1) > 5/math.Sqrt(rows*resamples) {
				t.Errorf("side %d, block %d: mean count %v, want 1", side, blk, mean)
			}
		}
	}
	// The labeled scores are the ranks nL-1 .. 0 (descending): mean (nL-1)/2,
	// standard deviation nL/sqrt(12) per draw.
	draws := float64(s.mL * resamples)
	if mean := estRank / draws; math.Abs(mean-(nL-1)/2.0) > 5*nL/math.Sqrt(12*draws) {
		t.Errorf("the estimator's draws have mean score %v, want %v", mean, (nL-1)/2.0)
	}
}

// binomialTail is P(X = c) of X ~ Binomial(n, p) for c < 3, and P(X >= 3)
// for c = 3.
func binomialTail(n int, p float64, c int) float64 {
	pmf := func(k int) float64 {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
		return math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
	}
	if c < 3 {
		return pmf(c)
	}
	return 1 - pmf(0) - pmf(1) - pmf(2)
}

// A bootstrap resample allocates no memory that grows with the rows: it
// counts draws per threshold in its worker's memory, which it reuses,
// instead of copying, ranking and recovering the drawn scores. Measured
// as the allocation of 40 resamples more, with alpha and beta given, on
// 10^5 rows: under 16 KB a resample (its two curves on the band grid and
// its share of the intervals: 11.8 KB measured). Before, every resample
// allocated 13.6 MB (the drawn scores and labels, their ranking, the
// recovery's points and curves).
func TestResampleAllocation(t *testing.T) {
	scores, labeled, _ := puScores(t, 22, 2, 0.3, 0.9, 10_000, 90_000)
	alloc := func(n int) uint64 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := BootstrapScores(context.Background(), scores, labeled, "", 0.3, 0.9, n, 0.95, recovery.Drop, 1, 1); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	few, many := alloc(10), alloc(50)
	per := float64(many-few) / 40
	t.Logf("%.0f bytes a resample", per)
	if per > 16<<10 {
		t.Errorf("a resample of %d rows allocates %.0f bytes, want under 16 KB", len(scores), per)
	}
}

// Above Options.EstimatorMaxRows rows every score-reading estimator reads
// one random subsample of that many rows, L and U in their proportions,
// without replacement, and says so (rows, subsampled, a warning); below,
// every row. pueval estimate (Estimate) does the same. Before, they read
// every row: distcurve took 260 s on 10^7 rows.
func TestScoreEstimatorsSubsample(t *testing.T) {
	scores, labeled, _ := puScores(t, 23, 2, 0.3, 0.9, 600, 2400)
	in := Input{Scores: scores, Labeled: labeled}
	res, err := Run(context.Background(), in, Options{EstimatorMaxRows: 1000, Bootstrap: 10, BoundsResamples: -1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Estimators {
		if e.Error != "" || e.Rows != 1000 || !e.Subsampled {
			t.Errorf("%s: %d rows, subsampled %v, error %q; want a subsample of 1000 rows", e.Method, e.Rows, e.Subsampled, e.Error)
		}
	}
	if !codes(res)[WarnSubsampled] {
		t.Errorf("no %s warning: %+v", WarnSubsampled, res.Warnings)
	}
	// The subsample is 200 labeled and 800 unlabeled rows of the input, as
	// drawn by scoreSampleOf: alphamax-n on it gives the reported estimate.
	l, u := split(scores, labeled)
	ss, err := scoreSampleOf(context.Background(), l, u, Options{EstimatorMaxRows: 1000, Seed: 2}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	if len(ss.labeled) != 200 || len(ss.unlabeled) != 800 || !isSubsequence(ss.labeled, l) || !isSubsequence(ss.unlabeled, u) {
		t.Fatalf("subsample of %d and %d rows, want 200 and 800 of the input's, in order", len(ss.labeled), len(ss.unlabeled))
	}
	e := runEstimator(context.Background(), classprior.AlphaMaxNName, ss, in, Options{Seed: 2}.withDefaults())
	if got := res.Estimators[0]; got.Method != classprior.AlphaMaxNName || got.Alpha != e.Alpha || got.Beta != e.Beta {
		t.Errorf("%s estimated %v, %v; on the subsample it gives %v, %v", got.Method, got.Alpha, got.Beta, e.Alpha, e.Beta)
	}
	ests, _, err := Estimate(context.Background(), in, Options{EstimatorMaxRows: 1000, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ests {
		if e.Rows != 1000 || !e.Subsampled || e.Alpha != res.Estimators[i].Alpha {
			t.Errorf("Estimate: %s read %d rows (subsampled %v), alpha %v; want Run's 1000 rows and alpha %v", e.Method, e.Rows, e.Subsampled, e.Alpha, res.Estimators[i].Alpha)
		}
	}
	small, err := Run(context.Background(), in, Options{BoundsResamples: -1, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range small.Estimators {
		if e.Rows != len(scores) || e.Subsampled {
			t.Errorf("%s: %d rows, subsampled %v; want all %d", e.Method, e.Rows, e.Subsampled, len(scores))
		}
	}
}

// isSubsequence reports whether sub is x with some elements left out.
func isSubsequence(sub, x []float64) bool {
	j := 0
	for _, v := range x {
		if j < len(sub) && sub[j] == v {
			j++
		}
	}
	return j == len(sub)
}

// pickSorted draws every k-subset with the same probability: all 10
// subsets of 2 of 5 indices, over 20,000 draws, chi-square with 9 degrees
// of freedom below its 0.999 quantile 27.88.
func TestPickSortedUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[[2]int]float64{}
	const draws = 20000
	for range draws {
		p := pickSorted(5, 2, rng)
		if len(p) != 2 || p[0] >= p[1] {
			t.Fatalf("pickSorted(5, 2) = %v", p)
		}
		seen[[2]int{p[0], p[1]}]++
	}
	chi2 := 0.0
	for _, f := range seen {
		chi2 += (f - draws/10) * (f - draws/10) / (draws / 10)
	}
	if len(seen) != 10 || chi2 > 27.88 {
		t.Errorf("subsets %v: chi-square %.1f", seen, chi2)
	}
}

// For an estimator that reads features, a resample's first draws stand
// for rows of the input: every drawn labeled row is labeled, unlabeled
// unlabeled, and has the score of the threshold drawn (rows in ranking
// order map to the ranking's thresholds, ties included); as many as the
// estimator reads (KMMaxRows, L and U in their proportions).
func TestResampleFeatureRows(t *testing.T) {
	scores, labeled, _ := puScores(t, 24, 2, 0.3, 0.9, 150, 450)
	for i := range scores {
		scores[i] = math.Round(scores[i]*4) / 4 // ties
	}
	x := make([]float64, len(scores)*2)
	for i, s := range scores {
		x[2*i], x[2*i+1] = s, float64(i%7)
	}
	in := Input{Scores: scores, Labeled: labeled, Features: mat.NewDense(len(scores), 2, x)}
	r, err := metrics.Rank(scores, labeled)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newResampler(context.Background(), r, in, classprior.KM1Name, 0.3, 0.9, Options{Seed: 4, KMMaxRows: 200}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	var sc scratch
	for b := range 3 {
		if err := s.draw(context.Background(), b, &sc); err != nil {
			t.Fatal(err)
		}
		if len(sc.estLRows) != 50 || len(sc.estURows) != 150 {
			t.Fatalf("the estimator reads %d and %d rows, want 50 and 150", len(sc.estLRows), len(sc.estURows))
		}
		for side, rows := range [][]int{sc.estLRows, sc.estURows} {
			drawn := [][]float64{sc.estL, sc.estU}[side]
			for j, row := range rows {
				if labeled[row] != (side == 0) || scores[row] != drawn[j] {
					t.Fatalf("resample %d, side %d, draw %d: row %d (labeled %v, score %v) for the score %v", b, side, j, row, labeled[row], scores[row], drawn[j])
				}
			}
		}
	}
	res, err := Run(context.Background(), in, Options{Estimators: []string{classprior.KM1Name}, KMMaxRows: 200, Bootstrap: 6, BoundsResamples: -1, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if res.Bootstrap.Used == 0 || res.Priors.AlphaInterval == nil {
		t.Errorf("km1 first: bootstrap %+v, alpha interval %v", res.Bootstrap, res.Priors.AlphaInterval)
	}
}

// BootstrapScores (pueval correct --bootstrap --estimate) re-estimates
// alpha and beta on every draw of a resample, as its caller estimated
// them on every row: above DefaultEstimatorMaxRows rows too. Its alpha
// interval over 2 resamples of 110,000 rows is the one of the estimator
// on all the draws of those resamples.
func TestBootstrapScoresEstimatesOnEveryDraw(t *testing.T) {
	scores, labeled, _ := puScores(t, 25, 2, 0.3, 0.9, 10_000, 100_000)
	iv, err := BootstrapScores(context.Background(), scores, labeled, classprior.AlphaMaxNName, 0.3, 0.9, 2, 0.95, recovery.Drop, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	r, err := metrics.Rank(scores, labeled)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Level: 0.95, Seed: 3, EstimatorMaxRows: len(scores)}.withDefaults()
	s, err := newResampler(context.Background(), r, Input{Scores: scores, Labeled: labeled}, classprior.AlphaMaxNName, 0.3, 0.9, opts)
	if err != nil {
		t.Fatal(err)
	}
	var sc scratch
	var alphas []float64
	for b := range 2 {
		res, err := s.resample(context.Background(), b, &sc)
		if err != nil {
			t.Fatal(err)
		}
		if len(sc.estL)+len(sc.estU) != len(scores) {
			t.Fatalf("the estimator read %d draws, want all %d", len(sc.estL)+len(sc.estU), len(scores))
		}
		alphas = append(alphas, res.alpha)
	}
	want := PercentileInterval(alphas, 0.95)
	if iv.Alpha == nil || *iv.Alpha != *want {
		t.Errorf("alpha interval %v, want %v (alphamax-n on every draw of each resample)", iv.Alpha, want)
	}
}

// A resample's draws ask the context at least once per interrupt.Every
// draws, whether the estimator reads a few of them or all (BootstrapScores
// has it read all: those draws, and their sort by block, asked nothing
// before), and stop with its error when it is done.
func TestDrawAsksContext(t *testing.T) {
	const nL, nU = 2 * interrupt.Every, 8 * interrupt.Every
	scores, labeled, _ := puScores(t, 26, 2, 0.3, 0.9, nL, nU)
	r, err := metrics.Rank(scores, labeled)
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1000, nL + nU} {
		opts := Options{Seed: 1, EstimatorMaxRows: limit}.withDefaults()
		s, err := newResampler(context.Background(), r, Input{Scores: scores, Labeled: labeled}, classprior.AlphaMaxNName, 0.3, 0.9, opts)
		if err != nil {
			t.Fatal(err)
		}
		var sc scratch
		all := interrupt.NewCountdown(1 << 62)
		if err := s.draw(all, 0, &sc); err != nil {
			t.Fatal(err)
		}
		if min := int64((nL + nU) / interrupt.Every); all.Calls() < min {
			t.Errorf("estimator reads %d rows: %d draws asked the context %d times, want at least %d", limit, nL+nU, all.Calls(), min)
		}
		if err := s.draw(interrupt.NewCountdown(2), 0, &sc); !errors.Is(err, context.Canceled) {
			t.Errorf("estimator reads %d rows: cancelled draws gave %v, want context.Canceled", limit, err)
		}
	}
}

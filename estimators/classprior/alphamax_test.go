package classprior

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/datasets/synth"
)

// newEstimator returns the registered estimator method with options o.
func newEstimator(method string, o Options) (Estimator, error) {
	c, err := Defaults(method)
	if err != nil {
		return nil, err
	}
	switch c := c.(type) {
	case *AlphaMax:
		c.Options = o
	case *AlphaMaxN:
		c.Options = o
	}
	return c.New()
}

func mustNew(t testing.TB, method string, o Options) Estimator {
	t.Helper()
	e, err := newEstimator(method, o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func sample(t testing.TB, seed uint64, pos, neg synth.Sampler, alpha, beta float64, nL, nU int) synth.Sample {
	t.Helper()
	s, err := synth.PU(rand.New(rand.NewPCG(seed, 1)), pos, neg, alpha, beta, nL, nU)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestRegistry(t *testing.T) {
	if got := strings.Join(Names(), ","); got != "alphamax,alphamax-n,distcurve,km1,km2" {
		t.Errorf("Names() = %s", got)
	}
	for _, m := range Names() {
		c, err := Defaults(m)
		if err != nil || c.Name() != m {
			t.Fatalf("Defaults(%q): %v %v", m, c, err)
		}
		e := mustNew(t, m, Options{})
		if e.Name() != m {
			t.Errorf("New(%q).Name() = %q", m, e.Name())
		}
	}
	if _, err := Defaults("kde"); err == nil || !strings.Contains(err.Error(), "alphamax, alphamax-n") {
		t.Errorf("unknown method: %v", err)
	}
	// Keys: the defaults filled in (an explicit default is the same key), the
	// method in it, any option change in it.
	a, b := &AlphaMaxN{}, &AlphaMaxN{Options: Options{Knee: KneeBlend, Window: 10}}
	if a.Key() != b.Key() || a.Key() == (&AlphaMax{}).Key() || a.Key() == (&AlphaMaxN{Options: Options{Knee: KneePublished}}).Key() {
		t.Errorf("keys: %s / %s", a.Key(), (&AlphaMax{}).Key())
	}
	if s1, s4 := (&AlphaMaxN{Options: Options{Shifts: 1}}).Key(), (&AlphaMaxN{Options: Options{Shifts: 4}}).Key(); s1 != a.Key() || s4 == a.Key() {
		t.Errorf("keys with shifts 1 and 4: %s / %s, default %s", s1, s4, a.Key())
	}
	defer func() {
		if recover() == nil {
			t.Error("a duplicate registration did not panic")
		}
	}()
	Register(AlphaMaxName, func() Config { return &AlphaMax{} })
}

// A cancelled context stops the estimator with its cause.
func TestEstimateCancelled(t *testing.T) {
	s := sample(t, 9, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 1, 200, 2000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := mustNew(t, AlphaMaxNName, Options{}).Estimate(ctx, Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestOptionsValidation(t *testing.T) {
	neg, one := -1, 1
	bad := Options{Knee: "elbow", Window: 1, Neighbours: -2, DropTau: -1, MaxLabeled: 5, Shifts: -1,
		Grid: Grid{From: 0.5, To: 0.2, LogPoints: &neg}}
	err := bad.Validate()
	if err == nil {
		t.Fatal("no error")
	}
	// Every problem is reported at once.
	for _, want := range []string{`knee "elbow"`, "window 1", "neighbours -2", "drop_tau -1", "max_labeled 5", "shifts -1", "grid from 0.5 to 0.2", "grid.log_points -1"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if err := (Options{Grid: Grid{Values: []float64{0.1, 1.2}}}).Validate(); err == nil || !strings.Contains(err.Error(), "grid.values[1] = 1.2") {
		t.Errorf("values outside (0,1): %v", err)
	}
	if err := (Options{Grid: Grid{Values: []float64{0.1, 0.2}, Step: 0.1}}).Validate(); err == nil || !strings.Contains(err.Error(), "leave out from") {
		t.Errorf("values with step: %v", err)
	}
	if err := (Options{Shifts: MaxShifts + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "shifts 65") {
		t.Errorf("shifts above MaxShifts: %v", err)
	}
	if err := (Options{Grid: Grid{LogPoints: &one}}).Validate(); err == nil {
		t.Error("log_points 1 accepted")
	}
	if err := (Options{Grid: Grid{From: 0.1, To: 0.2}}).Validate(); err == nil || !strings.Contains(err.Error(), "2*window+1") {
		t.Errorf("short grid: %v", err)
	}
	if _, err := newEstimator("alphamax", Options{Knee: "x"}); err == nil || !strings.HasPrefix(err.Error(), "alphamax options: ") {
		t.Errorf("New with bad options: %v", err)
	}
	for _, k := range Knees() {
		if err := (Options{Knee: k}).Validate(); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
}

func TestGridDefaults(t *testing.T) {
	g, err := Options{Knee: KneePublished}.WithDefaults().points()
	if err != nil {
		t.Fatal(err)
	}
	// 0.01, 0.02, ..., 0.99 (published), values rounded to decimals.
	if len(g) != 99 || g[0] != 0.01 || g[6] != 0.07 || g[98] != 0.99 {
		t.Errorf("published grid: %d points %v ... %v", len(g), g[:7], g[98])
	}
	g, err = Options{}.WithDefaults().points()
	if err != nil {
		t.Fatal(err)
	}
	// Plus 7 log-spaced points 0.001 .. 0.0072 (ratio 7.2^(1/6) = 1.3895, which continues into 0.01).
	if len(g) != 106 || math.Abs(g[0]-0.001) > 1e-15 || math.Abs(g[6]-0.0072) > 1e-15 || g[7] != 0.01 {
		t.Errorf("default grid: %d points, starts %v", len(g), g[:8])
	}
	if r := g[1] / g[0]; math.Abs(r-math.Pow(7.2, 1.0/6)) > 1e-12 {
		t.Errorf("log ratio %v", r)
	}
}

func TestDegenerateInput(t *testing.T) {
	ok := make([]float64, 20)
	for i := range ok {
		ok[i] = float64(i) / 19
	}
	nine := ok[:9]
	withNaN := slices.Clone(ok)
	withNaN[3] = math.NaN()
	withInf := slices.Clone(ok)
	withInf[0] = math.Inf(1)
	constant := []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}
	for _, m := range slices.DeleteFunc(Names(), func(m string) bool { c, _ := Defaults(m); fr, ok := c.(FeatureReader); return ok && fr.ReadsFeatures() }) {
		e := mustNew(t, m, Options{})
		for _, c := range []struct {
			name       string
			lab, unlab []float64
			want       string
		}{
			{"empty labeled", nil, ok, "no labeled scores"},
			{"empty unlabeled", ok, []float64{}, "no unlabeled scores"},
			{"9 labeled", nine, ok, "only 9 labeled scores: need at least 10"},
			{"9 unlabeled", ok, nine, "only 9 unlabeled scores"},
			{"NaN", withNaN, ok, "labeled score 3 is NaN"},
			{"Inf", ok, withInf, "unlabeled score 0 is +Inf"},
			{"constant labeled", constant, ok, "all 11 labeled scores equal 0.5"},
			{"constant unlabeled", ok, constant, "all 11 unlabeled scores equal 0.5"},
		} {
			_, err := e.Estimate(context.Background(), Input{Labeled: c.lab, Unlabeled: c.unlab}, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s %s: error %v, want %q", m, c.name, err, c.want)
			}
		}
	}
}

// TestWellSeparated is the acceptance case outside the study: clean labels,
// N(4,1) positives vs N(0,1) negatives; the default's beta-hat is within 0.05
// of 1 (the study checks 120 such samples) and alpha-hat near the truth.
func TestWellSeparated(t *testing.T) {
	s := sample(t, 11, synth.Normal(4, 1), synth.Normal(0, 1), 0.3, 1, 1000, 10000)
	est, err := mustNew(t, "alphamax-n", Options{}).Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(est.Beta-1) > 0.05 || math.Abs(est.Alpha-s.Alpha) > 0.05 {
		t.Errorf("alpha-hat %.4f (true %.4f), beta-hat %.4f (true 1)", est.Alpha, s.Alpha, est.Beta)
	}
	if est.Method != "alphamax-n" || est.Knee != KneeBlend || len(est.Curves) != 2 {
		t.Errorf("method %q knee %q curves %d", est.Method, est.Knee, len(est.Curves))
	}
	// Clean AlphaMax: one run, beta fixed at 1, alpha from the same first curve.
	clean, err := mustNew(t, "alphamax", Options{}).Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if clean.Beta != 1 || len(clean.Curves) != 1 || clean.Alpha != clean.Curves[0].Estimate || clean.Curves[0].Estimate != est.Curves[0].Estimate {
		t.Errorf("alphamax: %+v", clean)
	}
	if math.Abs(clean.Alpha-s.Alpha) > 0.05 {
		t.Errorf("alphamax alpha-hat %.4f, true %.4f", clean.Alpha, s.Alpha)
	}
}

// TestGapWarnings: beta-hat <= alpha-hat and a small beta-hat - alpha-hat
// come back unchanged with a warning.
func TestGapWarnings(t *testing.T) {
	for _, c := range []struct {
		alpha, beta float64
		want        string
	}{{0.6, 0.4, "<= alpha-hat"}, {0.5, 0.5, "<= alpha-hat"}, {0.5, 0.52, "is below 0.05"}, {0.3, 0.9, ""}} {
		w := strings.Join(gapWarnings(c.alpha, c.beta), "\n")
		if (c.want == "") != (w == "") || !strings.Contains(w, c.want) {
			t.Errorf("(%v, %v): warnings %q, want %q", c.alpha, c.beta, w, c.want)
		}
	}
	// Labeled and unlabeled from one distribution: both runs see a flat
	// curve (0.99 each), beta-hat - alpha-hat = 0.01*0.01/(1 - 0.99^2), small.
	s := sample(t, 12, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 1, 0, 2000)
	est, err := mustNew(t, "alphamax-n", Options{}).Estimate(context.Background(), Input{Labeled: s.Unlabeled, Unlabeled: s.Unlabeled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, b := combine(0.99, 0.99)
	if est.Alpha != a || est.Beta != b {
		t.Errorf("estimate (%v, %v), want (%v, %v)", est.Alpha, est.Beta, a, b)
	}
	if !slices.ContainsFunc(est.Warnings, func(w string) bool { return strings.Contains(w, "is below 0.05") }) {
		t.Errorf("no small-gap warning in %q", est.Warnings)
	}
}

// TestCombine: plugging the ideal run results alpha/beta and
// (1-beta)/(1-alpha) into the AlphaMax-N algebra returns (alpha, beta).
func TestCombine(t *testing.T) {
	for _, c := range [][2]float64{{0.25, 0.75}, {0.05, 1}, {0.5, 0.95}, {0.3, 0.31}} {
		alpha, beta := c[0], c[1]
		a, b := combine(alpha/beta, (1-beta)/(1-alpha))
		if math.Abs(a-alpha) > 1e-15 || math.Abs(b-beta) > 1e-15 {
			t.Errorf("combine for (%v, %v) = (%v, %v)", alpha, beta, a, b)
		}
	}
}

func TestSmallSampleWarnings(t *testing.T) {
	s := sample(t, 13, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 1, 50, 500)
	est, err := mustNew(t, "alphamax", Options{}).Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(est.Warnings, "\n")
	if !strings.Contains(joined, "only 500 unlabeled") || !strings.Contains(joined, "only 50 labeled") {
		t.Errorf("warnings %q", est.Warnings)
	}
}

// TestFlatCurve: a labeled set identical to the unlabeled set gives a
// likelihood that does not change with alpha: the default reports the last
// grid value (all of it is component), the published rule its first.
func TestFlatCurve(t *testing.T) {
	s := sample(t, 14, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 1, 0, 2000)
	for _, c := range []struct {
		knee string
		want float64
	}{{KneeBlend, 0.99}, {KneeFixed, 0.99}, {KneePublished, 0.01}} {
		est, err := mustNew(t, "alphamax", Options{Knee: c.knee}).Estimate(context.Background(), Input{Labeled: s.Unlabeled, Unlabeled: s.Unlabeled}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if est.Alpha != c.want || !slices.ContainsFunc(est.Warnings, func(w string) bool { return strings.Contains(w, "flat") }) {
			t.Errorf("%s: alpha %v (want %v), warnings %q", c.knee, est.Alpha, c.want, est.Warnings)
		}
	}
}

// TestSubsampleCap: above max_unlabeled the scores are drawn with
// replacement from rng (deterministic for a seed); without rng that is an error.
func TestSubsampleCap(t *testing.T) {
	s := sample(t, 15, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 1, 200, 3000)
	e := mustNew(t, "alphamax-n", Options{MaxUnlabeled: 1000})
	if _, err := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil); err == nil || !strings.Contains(err.Error(), "rng is nil") {
		t.Errorf("nil rng: %v", err)
	}
	a, err := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, rand.New(rand.NewPCG(1, 2)))
	if a.Alpha != b.Alpha || a.Beta != b.Beta {
		t.Errorf("same seed, different estimates: %v %v", a, b)
	}
	if !slices.ContainsFunc(a.Warnings, func(w string) bool {
		return strings.Contains(w, "1000 unlabeled scores drawn with replacement from 3000")
	}) {
		t.Errorf("warnings %q", a.Warnings)
	}
}

// TestShiftsMean: with shifts 4 each run reports the estimate of every
// origin; origin 0 is the published histogram, so its estimate is the
// single-histogram run's; the run's estimate is the mean of the four (the
// definition, summed in order), and alpha, beta follow from the two means.
// That origin j's own estimate is right is checked by TestEstimateMatchesStudy,
// where the study bins each origin itself.
func TestShiftsMean(t *testing.T) {
	s := sample(t, 21, synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 500, 5000)
	in := Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}
	one, err := mustNew(t, AlphaMaxNName, Options{}).Estimate(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	four, err := mustNew(t, AlphaMaxNName, Options{Shifts: 4}).Estimate(context.Background(), in, nil)
	if err != nil {
		t.Fatal(err)
	}
	var runs [2]float64
	for i, c := range four.Curves {
		if len(c.Shifts) != 4 || one.Curves[i].Shifts != nil {
			t.Fatalf("%s: %d origin estimates with shifts 4, %d with 1", c.Name, len(c.Shifts), len(one.Curves[i].Shifts))
		}
		if c.Shifts[0] != one.Curves[i].Estimate || !slices.Equal(c.LogLik, one.Curves[i].LogLik) {
			t.Errorf("%s: origin 0 estimate %v, single histogram %v (or its curve differs)", c.Name, c.Shifts[0], one.Curves[i].Estimate)
		}
		if want := (c.Shifts[0] + c.Shifts[1] + c.Shifts[2] + c.Shifts[3]) / 4; c.Estimate != want {
			t.Errorf("%s: estimate %v, want the mean of %v = %v", c.Name, c.Estimate, c.Shifts, want)
		}
		// The origins see different bins: not all four estimates agree.
		if c.Shifts[0] == c.Shifts[1] && c.Shifts[1] == c.Shifts[2] && c.Shifts[2] == c.Shifts[3] {
			t.Errorf("%s: every origin gives %v", c.Name, c.Shifts[0])
		}
		runs[i] = c.Estimate
	}
	if a, b := combine(runs[0], runs[1]); four.Alpha != a || four.Beta != b {
		t.Errorf("alpha, beta %v %v; the runs give %v %v", four.Alpha, four.Beta, a, b)
	}
}

// TestEstimateMatchesStudy: Estimate with each variant of the study (every
// rule, and shifted histograms) gives exactly what the study computes from
// curves on the union grid, so the study measures the estimator that callers
// get.
func TestEstimateMatchesStudy(t *testing.T) {
	s := sample(t, 16, synth.Beta(5, 2), synth.Beta(2, 5), 0.25, 0.95, 1000, 10000)
	rules, grids, union := studyGrid(t)
	alpha, beta, _ := studyRun(t, s, rules, grids, union)
	for i, o := range rules {
		est, err := mustNew(t, "alphamax-n", o).Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if est.Alpha != alpha[i] || est.Beta != beta[i] {
			t.Errorf("%s: Estimate (%v, %v), study (%v, %v)", studyVariants()[i].label, est.Alpha, est.Beta, alpha[i], beta[i])
		}
	}
}

// TestConcentratedComponent: a component sample with a tiny spread next to a
// wide mixture needs more than maxBins bins; that, and a spread below the
// resolution of the scores, are errors that name the run.
func TestConcentratedComponent(t *testing.T) {
	wide := make([]float64, 50)
	tight := make([]float64, 50)
	tiny := make([]float64, 50)
	for i := range wide {
		wide[i] = float64(i) / 5
		tight[i] = 0.5 + float64(i)*1e-9
		tiny[i] = 1e-300 * float64(i%2)
	}
	e := mustNew(t, "alphamax", Options{})
	if _, err := e.Estimate(context.Background(), Input{Labeled: tight, Unlabeled: wide}, nil); err == nil || !strings.Contains(err.Error(), "bins") ||
		!strings.Contains(err.Error(), "alphamax: unlabeled as mixture, labeled as component: bin width 1e-08") {
		t.Errorf("tight component: %v", err)
	}
	if _, err := e.Estimate(context.Background(), Input{Labeled: tiny, Unlabeled: wide}, nil); err == nil || !strings.Contains(err.Error(), "span only") {
		t.Errorf("tiny spread: %v", err)
	}
}

// FuzzEstimate: arbitrary finite scores never panic; an estimate, when there
// is one, lies in [0, 1], on either scale; on the rank scale the scores
// mapped by the increasing 3x - 7 (which keeps their order and ties: they
// are multiples of 0.01 below 656) give the same estimate, to the bit. The
// seeds include the rank scale's awkward inputs: every score tied but one,
// the labeled all above the unlabeled, and both sides of only two values.
func FuzzEstimate(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, uint8(10))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 255, 7}, uint8(12))
	f.Add([]byte{0, 1, 0, 9, 3, 0}, uint8(1))                                                       // 3 scores: refused, as by every estimator
	f.Add(slices.Repeat([]byte{0, 5}, 30), uint8(15))                                               // constant: refused
	f.Add(append(slices.Repeat([]byte{0, 5}, 29), 0, 6), uint8(12))                                 // all tied but the last
	f.Add(append(slices.Repeat([]byte{200, 1}, 12), slices.Repeat([]byte{1, 1}, 40)...), uint8(12)) // labeled above all unlabeled
	f.Add(slices.Repeat([]byte{0, 1, 0, 2}, 20), uint8(20))                                         // two values, on both sides
	raw, rank := mustNew(f, "alphamax-n", Options{}), mustNew(f, "alphamax-n", Options{Scale: ScaleRank})
	f.Fuzz(func(t *testing.T, data []byte, split uint8) {
		var scores []float64
		for i := 0; i+1 < len(data); i += 2 {
			scores = append(scores, float64(int(data[i])<<8|int(data[i+1]))/100)
		}
		k := int(split)
		if k > len(scores) {
			return
		}
		in := Input{Labeled: scores[:k], Unlabeled: scores[k:]}
		for _, e := range []Estimator{raw, rank} {
			est, err := e.Estimate(context.Background(), in, nil)
			if err != nil {
				continue
			}
			if !(est.Alpha >= 0 && est.Alpha <= 1 && est.Beta >= 0 && est.Beta <= 1) {
				t.Errorf("%s scale: estimate (%v, %v) outside [0, 1]", est.Scale, est.Alpha, est.Beta)
			}
			if want := fmt.Sprintf("only %d labeled scores", k); k < FewLabeled && !strings.Contains(strings.Join(est.Warnings, "\n"), want) {
				t.Errorf("an estimate from %d labeled scores warns %q: want %q", k, est.Warnings, want)
			}
			if e == rank {
				mapped := make([]float64, len(scores))
				for i, v := range scores {
					mapped[i] = 3*v - 7
				}
				m, err := e.Estimate(context.Background(), Input{Labeled: mapped[:k], Unlabeled: mapped[k:]}, nil)
				if err != nil || m.Alpha != est.Alpha || m.Beta != est.Beta {
					t.Errorf("rank scale: (%v, %v) from the scores, (%v, %v, %v) from 3x - 7", est.Alpha, est.Beta, m.Alpha, m.Beta, err)
				}
			}
		}
	})
}

// TestConcurrentUse: one estimator shared by goroutines gives each the same
// answer as a lone call (run with -race to check the claim of the Estimator docs).
func TestConcurrentUse(t *testing.T) {
	s := sample(t, 17, synth.Normal(2, 1), synth.Normal(0, 1), 0.25, 0.95, 200, 2000)
	e := mustNew(t, "alphamax-n", Options{})
	want, err := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan Estimate, 4)
	for range 4 {
		go func() {
			got, _ := e.Estimate(context.Background(), Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}, nil)
			got.Curves[0].Alpha[0] = -1 // a caller editing its curve must not affect the others
			done <- got
		}()
	}
	for range 4 {
		if got := <-done; got.Alpha != want.Alpha || got.Beta != want.Beta {
			t.Errorf("concurrent estimate (%v, %v), alone (%v, %v)", got.Alpha, got.Beta, want.Alpha, want.Beta)
		}
	}
}

package gmm

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// blobs draws n rows from each of the isotropic Gaussians N(centre_j, sd^2 I).
func blobs(rng *rand.Rand, n int, sd float64, centres ...[]float64) *mat.Dense {
	d := len(centres[0])
	x := mat.NewDense(n*len(centres), d, nil)
	for j, c := range centres {
		for i := range n {
			row := x.RawRowView(j*n + i)
			for t := range d {
				row[t] = c[t] + sd*rng.NormFloat64()
			}
		}
	}
	return x
}

func allRows(x *mat.Dense) []int {
	r, _ := x.Dims()
	rows := make([]int, r)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// TestSeparatedMeans: on two well-separated 2-D clusters (true means (0, 0)
// and (8, 8), unit variance, 2000 rows each) the fitted means lie within 0.1
// of the true ones (the sample means' standard error is 0.022), the weights
// within 0.01 of 1/2 and the variances within 0.1 of 1.
func TestSeparatedMeans(t *testing.T) {
	truth := [][]float64{{0, 0}, {8, 8}}
	x := blobs(rand.New(rand.NewPCG(1, 2)), 2000, 1, truth...)
	o := DefaultOptions()
	o.Components = 2
	g, err := Fit(context.Background(), x, o)
	if err != nil {
		t.Fatal(err)
	}
	m, v, w := g.Means(), g.Vars(), g.Weights()
	order := []int{0, 1}
	if m.At(0, 0) > m.At(1, 0) {
		order = []int{1, 0}
	}
	for j, c := range truth {
		f := order[j]
		for d := range c {
			near(t, "mean", m.At(f, d), c[d], 0.1)
			near(t, "variance", v.At(f, d), 1, 0.1)
		}
		near(t, "weight", w[f], 0.5, 0.01)
	}
	if !g.Converged() {
		t.Errorf("no convergence in %d iterations", g.Iterations())
	}
}

// TestDensityShape: the log-density is higher at each fitted mean (a mode of
// the mixture, since the components are 8 standard deviations apart) than at
// any training row nearer to that mean than to the other, and lower at an outlier than at any training row; and the
// representativeness of a planted outlier row is the smallest.
func TestDensityShape(t *testing.T) {
	x := blobs(rand.New(rand.NewPCG(3, 4)), 300, 1, []float64{0, 0}, []float64{8, 8})
	o := DefaultOptions()
	o.Components = 2
	g, err := Fit(context.Background(), x, o)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := g.LogDensity(x)
	if err != nil {
		t.Fatal(err)
	}
	modes, _ := g.LogDensity(g.Means())
	outlier, _ := g.LogDensity(mat.NewDense(1, 2, []float64{4, -20}))
	lo := slices.Min(rows)
	means := g.Means()
	for i, v := range rows {
		// The row's own mode: the nearer mean.
		j := 0
		if sqDist(x.RawRowView(i), means.RawRowView(1)) < sqDist(x.RawRowView(i), means.RawRowView(0)) {
			j = 1
		}
		if !(modes[j] > v) {
			t.Errorf("log-density at mean %d is %g, not above that of row %d, %g", j, modes[j], i, v)
		}
	}
	if !(outlier[0] < lo) {
		t.Errorf("log-density at the outlier is %g, not below the rows' minimum %g", outlier[0], lo)
	}

	n, _ := x.Dims()
	y := mat.NewDense(n+1, 2, nil)
	y.Copy(x)
	y.SetRow(n, []float64{4, -20})
	rep, err := Representativeness(context.Background(), y, allRows(y), o)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.Index(rep, slices.Min(rep)); i != n {
		t.Errorf("least representative row is %d (%g), want the outlier %d (%g)", i, rep[i], n, rep[n])
	}
}

// TestMonotone: EM never decreases the likelihood (Dempster, Laird and Rubin
// 1977). With RegCovar = 0 the M-step is the exact maximiser and the trace
// must not fall by more than rounding (1e-12 relative); with RegCovar > 0 it
// is not quite, but the loss is second order in RegCovar/variance, far below
// that bound here. Tol = 0 runs EM into the rounding regime.
func TestMonotone(t *testing.T) {
	x := dense(loadOracle(t).GMMX)
	for _, reg := range []float64{0, 1e-6} {
		for seed := range uint64(5) {
			o := Options{Components: 3, MaxIter: 300, Tol: 0, RegCovar: reg, Seed: seed}
			g, err := Fit(context.Background(), x, o)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i < len(g.trace); i++ {
				if g.trace[i] < g.trace[i-1]-1e-12*math.Abs(g.trace[i-1]) {
					t.Errorf("reg %g seed %d: log-likelihood fell from %.17g to %.17g at iteration %d", reg, seed, g.trace[i-1], g.trace[i], i)
				}
			}
			if g.LogLikelihood() <= g.trace[0] {
				t.Errorf("reg %g seed %d: EM gained nothing", reg, seed)
			}
		}
	}
}

// wideData is 120 rows of 3 overlapping clusters in 40 dimensions, so that
// the PCA to 20 dimensions is a real reduction.
func wideData() *mat.Dense {
	rng := rand.New(rand.NewPCG(5, 6))
	c := make([][]float64, 3)
	for j := range c {
		c[j] = make([]float64, 40)
		for t := range c[j] {
			c[j][t] = 1.5 * rng.NormFloat64()
		}
	}
	return blobs(rng, 40, 1, c...)
}

// TestDeterminism: the same seed gives bit-identical output, also under a
// different GOMAXPROCS (gonum's matrix products split work across
// goroutines, but each output block is summed by one goroutine in a fixed
// order, and whether to split depends on the sizes only; the 300×300 case is
// large enough to split). On the overlapping clusters of "wide" some other
// seed gives a different output, so the seed is really used; the three
// topics of "news" are so well separated that every seed finds the same
// hard partition, to the bit.
func TestDeterminism(t *testing.T) {
	for name, x := range map[string]*mat.Dense{
		"wide": wideData(),
		"news": newsLike(rand.New(rand.NewPCG(9, 10)), 300, 300),
	} {
		rows := allRows(x)
		o := DefaultOptions()
		o.Seed = 42
		a, err := Representativeness(context.Background(), x, rows, o)
		if err != nil {
			t.Fatal(err)
		}
		prev := runtime.GOMAXPROCS(1)
		b, err := Representativeness(context.Background(), x, rows, o)
		runtime.GOMAXPROCS(max(prev, 4))
		c, err2 := Representativeness(context.Background(), x, rows, o)
		runtime.GOMAXPROCS(prev)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		if !slices.Equal(a, b) || !slices.Equal(a, c) {
			t.Errorf("%s: same seed, different output", name)
		}
		differs := false
		for s := uint64(0); s < 10 && !differs; s++ {
			o.Seed = s
			d, err := Representativeness(context.Background(), x, rows, o)
			if err != nil {
				t.Fatal(err)
			}
			differs = !slices.Equal(a, d)
		}
		if !differs && name == "wide" {
			t.Errorf("%s: seeds 0..9 all give the output of seed 42", name)
		}
	}
}

// TestPermutation: Representativeness sorts the rows by content before
// fitting, so permuting the rows (in the index list or in the matrix itself)
// permutes the output exactly, bit for bit.
func TestPermutation(t *testing.T) {
	x := wideData()
	n, d := x.Dims()
	rows := allRows(x)
	o := DefaultOptions()
	base, err := Representativeness(context.Background(), x, rows, o)
	if err != nil {
		t.Fatal(err)
	}
	perm := rand.New(rand.NewPCG(7, 8)).Perm(n)
	got, err := Representativeness(context.Background(), x, perm, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range perm {
		if got[i] != base[r] {
			t.Fatalf("row %d: %v after permuting the index list, %v before", r, got[i], base[r])
		}
	}
	y := mat.NewDense(n, d, nil)
	for i, r := range perm {
		y.SetRow(i, x.RawRowView(r))
	}
	got, err = Representativeness(context.Background(), y, rows, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range perm {
		if got[i] != base[r] {
			t.Fatalf("row %d: %v after permuting the matrix, %v before", r, got[i], base[r])
		}
	}
}

// TestSubsetOrder: Representativeness on some rows equals a fit on just
// those rows copied into their own matrix (the other rows play no part).
func TestSubsetOrder(t *testing.T) {
	x := wideData()
	rows := []int{100, 3, 57, 2, 99, 40, 41, 80, 81, 82, 0, 1, 5, 7, 9, 11, 13, 60, 61, 62}
	o := DefaultOptions()
	a, err := Representativeness(context.Background(), x, rows, o)
	if err != nil {
		t.Fatal(err)
	}
	_, d := x.Dims()
	y := mat.NewDense(len(rows), d, nil)
	for i, r := range rows {
		y.SetRow(i, x.RawRowView(r))
	}
	b, err := Representativeness(context.Background(), y, allRows(y), o)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Errorf("subset of x and its copy disagree:\n%v\n%v", a, b)
	}
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	x := wideData()
	rows := allRows(x)
	def := DefaultOptions()
	with := func(f func(*Options)) Options { o := def; f(&o); return o }
	nan := mat.DenseCopyOf(x)
	nan.Set(7, 3, math.NaN())
	inf := mat.DenseCopyOf(x)
	inf.Set(7, 3, math.Inf(-1))
	same := mat.NewDense(10, 4, nil) // all rows identical
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, c := range []struct {
		name string
		ctx  context.Context
		x    *mat.Dense
		rows []int
		o    Options
		is   error
	}{
		{"k=0", ctx, x, rows, with(func(o *Options) { o.Components = 0 }), nil},
		{"k<0", ctx, x, rows, with(func(o *Options) { o.Components = -1 }), nil},
		{"zero options", ctx, x, rows, Options{Components: 3}, nil},
		{"negative PCA", ctx, x, rows, with(func(o *Options) { o.PCA = -1 }), nil},
		{"NaN tol", ctx, x, rows, with(func(o *Options) { o.Tol = math.NaN() }), nil},
		{"negative reg", ctx, x, rows, with(func(o *Options) { o.RegCovar = -1 }), nil},
		{"fewer rows than k", ctx, x, rows[:2], def, ErrTooFewRows},
		{"no rows", ctx, x, nil, def, ErrTooFewRows},
		{"identical rows", ctx, same, allRows(same), def, ErrTooFewRows},
		{"identical rows, no PCA", ctx, same, allRows(same), with(func(o *Options) { o.PCA = 0 }), ErrTooFewRows},
		{"NaN", ctx, nan, rows, def, nil},
		{"Inf", ctx, inf, rows, def, nil},
		{"row out of range", ctx, x, []int{0, 1, 2, 1000}, def, nil},
		{"negative row", ctx, x, []int{0, 1, -2}, def, nil},
		{"nil matrix", ctx, nil, rows, def, nil},
		{"cancelled", cancelled, x, rows, def, context.Canceled},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Representativeness(c.ctx, c.x, c.rows, c.o)
			if err == nil {
				t.Fatalf("no error, got %v", got)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %q is not %q", err, c.is)
			}
			t.Log(err)
		})
	}
}

func TestFitErrors(t *testing.T) {
	ctx := context.Background()
	x := dense(loadOracle(t).GMMX)
	if _, err := Fit(ctx, x, Options{Components: 3, MaxIter: 10, Tol: 1e-6}); err != nil {
		t.Fatalf("valid options: %v", err)
	}
	good := func() Params {
		return Params{
			Weights: []float64{0.5, 0.5},
			Means:   mat.NewDense(2, 3, []float64{0, 0, 0, 3, 1, -1}),
			Vars:    mat.NewDense(2, 3, []float64{1, 1, 1, 1, 1, 1}),
		}
	}
	o := DefaultOptions()
	if _, err := FitFrom(ctx, x, good(), o); err != nil {
		t.Fatalf("valid parameters: %v", err)
	}
	for name, f := range map[string]func(*Params){
		"weights sum":    func(p *Params) { p.Weights[0] = 0.6 },
		"zero weight":    func(p *Params) { p.Weights = []float64{0, 1} },
		"no components":  func(p *Params) { p.Weights = nil },
		"means shape":    func(p *Params) { p.Means = mat.NewDense(2, 2, nil) },
		"vars shape":     func(p *Params) { p.Vars = mat.NewDense(3, 3, nil) },
		"zero variance":  func(p *Params) { p.Vars.Set(1, 2, 0) },
		"NaN mean":       func(p *Params) { p.Means.Set(1, 2, math.NaN()) },
		"nil means":      func(p *Params) { p.Means = nil },
		"infinite var":   func(p *Params) { p.Vars.Set(0, 0, math.Inf(1)) },
		"weights length": func(p *Params) { p.Weights = []float64{0.25, 0.25, 0.5} },
	} {
		p := good()
		f(&p)
		if _, err := FitFrom(ctx, x, p, o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}

	// A component far from every row with a tiny variance gets responsibility
	// exp(-1e17) = 0 from all of them: a collapse, reported, not a NaN fit.
	p := good()
	p.Means.SetRow(1, []float64{1e6, 1e6, 1e6})
	p.Vars.SetRow(1, []float64{1e-3, 1e-3, 1e-3})
	if _, err := FitFrom(ctx, x, p, o); !errors.Is(err, ErrCollapsed) {
		t.Errorf("far component: error %v, want ErrCollapsed", err)
	}

	g, err := FitFrom(ctx, x, good(), o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.LogDensity(mat.NewDense(2, 2, nil)); err == nil {
		t.Errorf("LogDensity of 2 columns for a 3-D mixture: no error")
	}
	if _, err := g.LogDensity(mat.NewDense(1, 3, []float64{0, math.NaN(), 0})); err == nil {
		t.Errorf("LogDensity of NaN: no error")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := FitFrom(cancelled, x, good(), o); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

// TestFitFromDoesNotModify: FitFrom works on a copy of its initial parameters.
func TestFitFromDoesNotModify(t *testing.T) {
	x := dense(loadOracle(t).GMMX)
	p := Params{
		Weights: []float64{0.5, 0.5},
		Means:   mat.NewDense(2, 3, []float64{0, 0, 0, 3, 1, -1}),
		Vars:    mat.NewDense(2, 3, []float64{1, 1, 1, 1, 1, 1}),
	}
	q := p.clone()
	if _, err := FitFrom(context.Background(), x, p, DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Weights, q.Weights) || !mat.Equal(p.Means, q.Means) || !mat.Equal(p.Vars, q.Vars) {
		t.Errorf("initial parameters modified")
	}
}

// TestKMeansPP: the seeds are distinct rows; with exactly k distinct rows
// (each repeated) k-means++ must find all of them.
func TestKMeansPP(t *testing.T) {
	x := mat.NewDense(12, 2, nil)
	for i := range 12 {
		x.SetRow(i, []float64{float64(i % 3), float64(i%3) * 2})
	}
	for s := range uint64(20) {
		seeds, err := kmeansPP(rand.New(rand.NewPCG(s, 0)), x, 3)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int]bool{}
		for _, r := range seeds {
			got[r%3] = true
		}
		if len(got) != 3 {
			t.Errorf("seed %d: seeds %v are not the 3 distinct rows", s, seeds)
		}
	}
	if _, err := kmeansPP(rand.New(rand.NewPCG(0, 0)), x, 4); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("4 seeds from 3 distinct rows: error %v", err)
	}
}

// TestNoPCA: with PCA = 0, Representativeness is Fit and LogDensity on the
// rows themselves, taken in lexicographic order.
func TestNoPCA(t *testing.T) {
	x := blobs(rand.New(rand.NewPCG(19, 20)), 50, 1, []float64{0, 0, 0}, []float64{4, 0, 1}, []float64{0, 5, 5})
	n, _ := x.Dims()
	sorted := make([][]float64, n)
	for i := range n {
		sorted[i] = x.RawRowView(i)
	}
	slices.SortFunc(sorted, compareRows)
	y := dense(sorted)
	o := DefaultOptions()
	o.PCA = 0
	got, err := Representativeness(context.Background(), y, allRows(y), o)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Fit(context.Background(), y, o)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := g.LogDensity(y)
	if !slices.Equal(got, want) {
		t.Errorf("Representativeness without PCA differs from Fit + LogDensity")
	}
}

// TestSmall: the smallest inputs: one component on one row is rejected only
// for want of a PCA axis (n-1 = 0); 1-D data; as many rows as components.
func TestSmall(t *testing.T) {
	ctx := context.Background()
	one := mat.NewDense(1, 2, []float64{1, 2})
	o := DefaultOptions()
	o.Components = 1
	if _, err := Representativeness(ctx, one, []int{0}, o); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("one row with PCA: error %v", err)
	}
	o.PCA = 0
	if r, err := Representativeness(ctx, one, []int{0}, o); err != nil || len(r) != 1 {
		t.Errorf("one row without PCA: %v, %v", r, err)
	}

	line := mat.NewDense(6, 1, []float64{0, 1, 2, 10, 11, 12})
	p, err := FitPCA(line, allRows(line), 20)
	if err != nil || len(p.Variances) != 1 {
		t.Fatalf("1-D PCA: %v, %+v", err, p)
	}
	// sum_i (x_i - 6)^2 / 5 = (36+25+16+16+25+36)/5 = 30.8.
	near(t, "1-D variance", p.Variances[0], 30.8, 1e-12)
	near(t, "1-D axis", p.Components.At(0, 0), 1, 0)

	o = DefaultOptions()
	three := mat.NewDense(3, 2, []float64{0, 0, 1, 0, 0, 1})
	r, err := Representativeness(ctx, three, allRows(three), o)
	if err != nil || len(r) != 3 {
		t.Errorf("3 rows, 3 components: %v, %v", r, err)
	}
	for _, v := range r {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("3 rows, 3 components: log-density %v", v)
		}
	}
}

// TestMaxPosterior: one component gives every row the posterior 1
// exactly (w = 1: the log-sum-exp of one term is the term); two clusters 8
// SDs apart give rows at their centres a posterior within 1e-9 of 1 and a
// row midway between the fitted means one in [1/2, 0.9] (1/2 with equal
// weights and variances; the fitted ones differ a little, which 4 SDs from
// each mean amplifies); an outlier far beyond a cluster
// keeps a posterior near 1, the reading that differs from the density's.
func TestMaxPosterior(t *testing.T) {
	x := blobs(rand.New(rand.NewPCG(3, 4)), 300, 1, []float64{0, 0}, []float64{8, 8})
	o := DefaultOptions()
	o.Components, o.PCA = 1, 0
	post, err := MaxPosterior(context.Background(), x, allRows(x), o)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range post {
		if p != 1 {
			t.Fatalf("one component: row %d posterior %v, want 1", i, p)
		}
	}
	o.Components = 2
	g, err := Fit(context.Background(), x, o)
	if err != nil {
		t.Fatal(err)
	}
	m := g.Means()
	mid := mat.NewDense(4, 2, []float64{
		0, 0, 8, 8,
		(m.At(0, 0) + m.At(1, 0)) / 2, (m.At(0, 1) + m.At(1, 1)) / 2,
		-30, -30,
	})
	p, err := g.MaxPosterior(mid)
	if err != nil {
		t.Fatal(err)
	}
	near(t, "posterior at (0, 0)", p[0], 1, 1e-9)
	near(t, "posterior at (8, 8)", p[1], 1, 1e-9)
	if p[2] < 0.5 || p[2] > 0.9 {
		t.Errorf("posterior midway %v: want in [1/2, 0.9], well below the centres'", p[2])
	}
	near(t, "posterior of an outlier", p[3], 1, 1e-9)
	if _, err := g.MaxPosterior(mat.NewDense(1, 3, nil)); err == nil {
		t.Error("3 columns for a 2-D mixture: want an error")
	}
}

package benchevaluate

import (
	"context"
	"encoding/csv"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readLogRegData reads testdata/logreg.csv: 80 rows of three features and
// a 0/1 target, drawn by numpy (default_rng(45): x1 ~ N(0, 1), x2 ~ N(5,
// 3^2), x3 ~ U(-2, 2), rounded to 3 decimals; y ~ Bernoulli(sigmoid(0.5 +
// 1.2 x1 - 0.3 (x2 - 5) + 0.8 x3))).
func readLogRegData(t *testing.T) (*mat.Dense, []bool) {
	t.Helper()
	f, err := os.Open("testdata/logreg.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	recs = recs[1:]
	x := mat.NewDense(len(recs), 3, nil)
	y := make([]bool, len(recs))
	for i, r := range recs {
		for j := range 3 {
			v, err := strconv.ParseFloat(r[j], 64)
			if err != nil {
				t.Fatal(err)
			}
			x.Set(i, j, v)
		}
		y[i] = r[3] == "1"
	}
	return x, y
}

// TestLogRegMatchesScikitLearn compares the fit with scikit-learn 1.2.1's
// (Debian python3-sklearn) on testdata/logreg.csv, frozen from:
//
//	z = StandardScaler().fit_transform(x)
//	m = LogisticRegression(C=C, tol=1e-14, max_iter=100000, solver="newton-cholesky").fit(z, y)
//	m.intercept_, m.coef_, m.predict_proba(z)[[0, 1, 79], 1]
//
// (lbfgs agrees with these to 2e-6, its own precision).
func TestLogRegMatchesScikitLearn(t *testing.T) {
	x, y := readLogRegData(t)
	for _, tc := range []struct {
		c         float64
		intercept float64
		coef      [3]float64
		prob      [3]float64 // rows 0, 1, 79
	}{
		{1, 0.7136898327105047, [3]float64{0.6183625505744066, -0.7296690868311374, 1.1481824913067449},
			[3]float64{0.41002245998994075, 0.6395808000918235, 0.6962030372105928}},
		{0.1, 0.5745617510278689, [3]float64{0.33734486530825003, -0.36120704488010025, 0.62354085158383},
			[3]float64{0.5000360269711548, 0.6278770918259268, 0.649830848600906}},
	} {
		o := DefaultLogReg()
		o.Lambda = 1 / tc.c
		m, err := o.Fit(context.Background(), x, y, nil)
		if err != nil {
			t.Fatal(err)
		}
		const tol = 1e-9
		if math.Abs(m.Intercept-tc.intercept) > tol {
			t.Errorf("C %v: intercept %.12g, scikit-learn %.12g", tc.c, m.Intercept, tc.intercept)
		}
		for j, want := range tc.coef {
			if math.Abs(m.Coef[j]-want) > tol {
				t.Errorf("C %v: coef %d %.12g, scikit-learn %.12g", tc.c, j, m.Coef[j], want)
			}
		}
		for k, i := range []int{0, 1, 79} {
			if got := m.Prob(x.RawRowView(i)); math.Abs(got-tc.prob[k]) > tol {
				t.Errorf("C %v: P(row %d) %.12g, scikit-learn %.12g", tc.c, i, got, tc.prob[k])
			}
		}
	}
}

// Every out-of-fold score is the prediction of the model fitted on the
// other folds (the same folds drawn again from the same stream), never of
// one that saw the row.
func TestOutOfFoldHoldsOut(t *testing.T) {
	x, y := readLogRegData(t)
	o := DefaultLogReg()
	scores, err := o.OutOfFold(context.Background(), x, y, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	fold := StratifiedFolds(y, o.Folds, rand.New(rand.NewPCG(3, 4)))
	for f := range o.Folds {
		var train []int
		for i, k := range fold {
			if k != f {
				train = append(train, i)
			}
		}
		m, err := o.Fit(context.Background(), x, y, train)
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range fold {
			if k == f && scores[i] != m.Prob(x.RawRowView(i)) {
				t.Fatalf("row %d of fold %d: score %v, the other folds' model gives %v", i, f, scores[i], m.Prob(x.RawRowView(i)))
			}
		}
	}
	full, _ := o.Fit(context.Background(), x, y, nil)
	same := 0
	for i := range scores {
		if scores[i] == full.Prob(x.RawRowView(i)) {
			same++
		}
	}
	if same > 0 {
		t.Errorf("%d out-of-fold scores equal the in-sample fit's", same)
	}
}

// Stratified folds: each fold holds its share of each class to within one
// row (here 50 positives and 30 negatives in 5 folds: exactly 10 and 6).
func TestStratifiedFolds(t *testing.T) {
	_, y := readLogRegData(t)
	fold := StratifiedFolds(y, 5, rand.New(rand.NewPCG(1, 1)))
	var pos, neg [5]int
	for i, f := range fold {
		if y[i] {
			pos[f]++
		} else {
			neg[f]++
		}
	}
	for f := range 5 {
		if pos[f] != 10 || neg[f] != 6 {
			t.Errorf("fold %d: %d positives and %d negatives, want 10 and 6", f, pos[f], neg[f])
		}
	}
}

func TestLogRegRefuses(t *testing.T) {
	x, y := readLogRegData(t)
	o := DefaultLogReg()
	o.Lambda = 0
	if _, err := o.Fit(context.Background(), x, y, nil); err == nil {
		t.Error("lambda 0 accepted")
	}
	var negatives []int
	for i, v := range y {
		if !v {
			negatives = append(negatives, i)
		}
	}
	if _, err := DefaultLogReg().Fit(context.Background(), x, y, negatives); err == nil {
		t.Error("rows of one class accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := DefaultLogReg().Fit(ctx, x, y, nil); err == nil {
		t.Error("a cancelled context did not stop the fit")
	}
}

// A constant feature (as a one-hot column that never fires) gets scale 0
// and coefficient 0, and the others fit as without it.
func TestLogRegConstantFeature(t *testing.T) {
	x, y := readLogRegData(t)
	n, _ := x.Dims()
	x4 := mat.NewDense(n, 4, nil)
	for i := range n {
		x4.SetRow(i, append(append([]float64{}, x.RawRowView(i)...), 7))
	}
	m3, err := DefaultLogReg().Fit(context.Background(), x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	m4, err := DefaultLogReg().Fit(context.Background(), x4, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m4.Scale[3] != 0 || m4.Coef[3] != 0 {
		t.Errorf("constant feature: scale %v, coef %v; want 0, 0", m4.Scale[3], m4.Coef[3])
	}
	for j := range 3 {
		if math.Abs(m4.Coef[j]-m3.Coef[j]) > 1e-12 {
			t.Errorf("coef %d: %v with the constant column, %v without", j, m4.Coef[j], m3.Coef[j])
		}
	}
}

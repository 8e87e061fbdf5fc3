package kmpe

import (
	"context"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// scaledRows returns the rows with the features in cols multiplied by f
// (every feature when cols is nil).
func scaledRows(rows [][]float64, f float64, cols []int) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		o := make([]float64, len(r))
		copy(o, r)
		if cols == nil {
			for j := range o {
				o[j] *= f
			}
		}
		for _, j := range cols {
			o[j] *= f
		}
		out[i] = o
	}
	return out
}

// TestHugeFeatures: features of magnitude 1e155, 1e300 and -1e300 (whose
// squares overflow float64) give the estimates of the same rows at their
// ordinary magnitude. The source is exact invariance: zscore and minmax
// map x and c x (c != 0; c < 0 mirrors the feature, which moves no
// distance) to the same scaled feature, and raw features multiplied by
// one c have squared distances c^2 D2, a median c^2 times as large and so
// the same kernel. Multiplying by 1e155 rounds each feature, which could
// in principle move a bisection decision lying within rounding of its
// threshold; on goldenRows none does. A power of two is exact: there the
// whole result's estimates and distances keep their bits.
func TestHugeFeatures(t *testing.T) {
	ctx := context.Background()
	mix, comp := goldenRows()
	for _, s := range []Scaling{ZScore, MinMax, Raw} {
		cases := []struct {
			name string
			f    float64
			cols []int // nil: every feature
		}{
			{"1e155", 1e155, nil},
			{"1e300", 1e300, nil},
			{"-1e300", -1e300, nil},
			{"2^900", math.Ldexp(1, 900), nil},
			{"2^-1000", math.Ldexp(1, -1000), nil},
			{"feature 1 at 1e300", 1e300, []int{1}},
		}
		for _, c := range cases {
			if s == Raw && c.cols != nil {
				continue // raw features are not scale-invariant one by one
			}
			// A cached estimate equals a direct one only up to rounding:
			// each is compared with its own kind.
			for _, est := range []func(m, k [][]float64) (*Result, error){
				func(m, k [][]float64) (*Result, error) { return Estimate(ctx, m, k, Options{Scaling: s}) },
				func(m, k [][]float64) (*Result, error) { return NewCache(1).Estimate(ctx, m, k, Options{Scaling: s}) },
			} {
				want, err := est(mix, comp)
				if err != nil {
					t.Fatal(err)
				}
				got, err := est(scaledRows(mix, c.f, c.cols), scaledRows(comp, c.f, c.cols))
				if err != nil {
					t.Errorf("%s, features x %s: %v", s, c.name, err)
					continue
				}
				if got.KM1 != want.KM1 || got.KM2 != want.KM2 || got.SigmaIndex != want.SigmaIndex {
					t.Errorf("%s, features x %s: KM1 %v KM2 %v width %d, want %v %v %d (the ordinary magnitude's)",
						s, c.name, got.KM1, got.KM2, got.SigmaIndex, want.KM1, want.KM2, want.SigmaIndex)
				}
				if !(math.Abs(got.Delta-want.Delta) <= 1e-9*want.Delta) {
					t.Errorf("%s, features x %s: delta %v, want %v", s, c.name, got.Delta, want.Delta)
				}
				exact := c.f == math.Ldexp(1, 900) || c.f == math.Ldexp(1, -1000)
				if exact && (got.Delta != want.Delta || got.D105 != want.D105 || len(got.Solves) != len(want.Solves)) {
					t.Errorf("%s, features x %s (a power of two): delta %v d(1.05) %v, %d QPs, want the bits %v %v, %d",
						s, c.name, got.Delta, got.D105, len(got.Solves), want.Delta, want.D105, len(want.Solves))
				}
			}
		}
	}
}

// TestScaleRowsFinite: every scaling of finite features of any magnitude
// gives finite scaled features, zscore ones of mean 0 and population
// standard deviation 1 (to rounding), minmax ones spanning [0, 1].
func TestScaleRowsFinite(t *testing.T) {
	rows := [][]float64{
		{1e308, -math.MaxFloat64, 5e-324, 1},
		{-1e308, math.MaxFloat64, 0, 2},
		{1e300, 0, -5e-324, 3},
	}
	for _, s := range []Scaling{ZScore, MinMax, Raw} {
		out, _, exp, err := scaleRows(rows, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		for i, r := range out {
			for j, x := range r {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Errorf("%s: row %d feature %d scaled to %v", s, i, j, x)
				}
			}
		}
		d2 := squaredDistances(out, 1)
		for k, x := range d2 {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				t.Errorf("%s: squared distance %d of the scaled rows is %v", s, k, x)
			}
		}
		if s == Raw && exp != -1024 {
			t.Errorf("raw: rows of magnitude 1.8e308 multiplied by 2^%d, want 2^-1024 (into [1/2, 1))", exp)
		}
		for j := range rows[0] {
			var sum, ss, lo, hi float64
			lo, hi = math.Inf(1), math.Inf(-1)
			for _, r := range out {
				sum += r[j]
				lo, hi = min(lo, r[j]), max(hi, r[j])
			}
			mean := sum / float64(len(out))
			for _, r := range out {
				ss += (r[j] - mean) * (r[j] - mean)
			}
			sd := math.Sqrt(ss / float64(len(out)))
			switch s {
			case ZScore:
				if math.Abs(mean) > 1e-15 || math.Abs(sd-1) > 1e-15 {
					t.Errorf("zscore feature %d: mean %v, standard deviation %v, want 0 and 1", j, mean, sd)
				}
			case MinMax:
				if lo != 0 || hi != 1 {
					t.Errorf("minmax feature %d: [%v, %v], want [0, 1]", j, lo, hi)
				}
			}
		}
	}
	if _, _, _, err := scaleRows([][]float64{{1}, {1}}, ZScore); err == nil || !strings.Contains(err.Error(), "constant") {
		t.Errorf("constant rows: %v", err)
	}
}

// FuzzScaleRows: rows of any finite features (the fuzzer's bytes read as
// float64 bits, three features a row) scale to finite features under
// every scaling, and their squared distances are finite. The seeds are
// the magnitudes whose squares overflow (1e155, 1e300, -1e300) and
// subnormals.
func FuzzScaleRows(f *testing.F) {
	row := func(xs ...float64) []byte {
		var b []byte
		for _, x := range xs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		return b
	}
	f.Add(append(row(1e155, 2e155, -3e155), row(5e154, 1, 0)...))
	f.Add(append(row(1e300, -1e300, 7), row(-1e300, 1e300, 8)...))
	f.Add(append(row(5e-324, 1e-310, math.MaxFloat64), row(0, -5e-324, -math.MaxFloat64)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows [][]float64
		for len(data) >= 24 {
			r := make([]float64, 3)
			for j := range r {
				r[j] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*j:]))
			}
			data = data[24:]
			if checkRows("fuzz", [][]float64{r}, 3) != nil {
				return // not finite: refused before scaling
			}
			rows = append(rows, r)
		}
		if len(rows) < 2 || len(rows) > 64 {
			return
		}
		for _, s := range []Scaling{ZScore, MinMax, Raw} {
			out, _, _, err := scaleRows(rows, s)
			if err != nil {
				continue // every feature constant
			}
			for _, x := range squaredDistances(out, 1) {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s: a squared distance of the scaled rows is %v (rows %v)", s, x, rows)
				}
			}
		}
	})
}

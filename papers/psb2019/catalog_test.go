package psb2019

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/datasets/pusplit"
)

// The PSB-2019 rules of the catalog's Activity S1/S2 (sitting on the bed
// positive; lying, the earlier rule, kept as activity-s*-lying) and
// Epileptic Seizure Recognition (seizure positive) give the paper's splits.

// psbBetas is the PSB-2019 grid (psb2019.yaml).
var psbBetas = []float64{1, 0.9, 0.8, 0.7}

// psbSplitPriors draws a psb2019 split (Sizes, pusplit.Stratified)
// of a data set with the given counts and returns the positive shares of
// U (alpha) and L (beta), as the runner computes them.
func psbSplitPriors(n, npos int, beta float64) (alpha, betaL float64, nl, nu int, err error) {
	if nl, nu, err = Sizes(n, npos, psbBetas); err != nil {
		return
	}
	y := make([]bool, n)
	for i := range npos {
		y[i] = true
	}
	s, err := pusplit.Stratified(rand.New(rand.NewPCG(22, 22)), y, nl, nu, beta)
	if err != nil {
		return
	}
	share := func(rows []int) float64 {
		k := 0
		for _, r := range rows {
			if y[r] {
				k++
			}
		}
		return float64(k) / float64(len(rows))
	}
	return share(s.Unlabeled), share(s.Labeled), nl, nu, nil
}

// TestPSBRulesRunEveryBeta: every PSB-2019 data set of the catalog (the
// available ones, under their default rules) gives a psb2019 split at every
// beta of the grid with beta above alpha, which the recovery needs; the
// alphas of the three issue-22 entries are those their notes state.
func TestPSBRulesRunEveryBeta(t *testing.T) {
	cat, err := datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range cat.ForPaper("psb2019") {
		sp, _ := cat.Lookup(name)
		if sp.Unavailable != "" || strings.HasSuffix(name, "-lying") {
			continue
		}
		for _, b := range psbBetas {
			alpha, bl, _, _, err := psbSplitPriors(sp.Expect.N, sp.Expect.NPos, b)
			if err != nil {
				t.Errorf("%s, beta %v: %v", name, b, err)
				continue
			}
			if !(alpha < bl) {
				t.Errorf("%s, beta %v: alpha %.4f is not below beta %.4f", name, b, alpha, bl)
			}
		}
	}
	// The notes' numbers: n_l / n_u, and alpha at beta 1, 0.9, 0.8, 0.7.
	for _, c := range []struct {
		name   string
		nl, nu int
		alphas []string
	}{
		{"activity-s1", 1000, 10000, []string{"0.275", "0.277", "0.279", "0.281"}},
		{"activity-s2", 1000, 10000, []string{"0.011", "0.016", "0.021", "0.025"}},
		{"epileptic", 1000, 10000, []string{"0.124", "0.133", "0.143", "0.152"}},
		{"activity-s1-lying", 1000, 10000, []string{"0.582", "0.584", "0.586", "0.588"}},
	} {
		sp, _ := cat.Lookup(c.name)
		var got []string
		for _, b := range psbBetas {
			alpha, _, nl, nu, err := psbSplitPriors(sp.Expect.N, sp.Expect.NPos, b)
			if err != nil || nl != c.nl || nu != c.nu {
				t.Fatalf("%s, beta %v: n_l %d, n_u %d, %v; want %d, %d", c.name, b, nl, nu, err, c.nl, c.nu)
			}
			got = append(got, fmt.Sprintf("%.3f", alpha))
			if !strings.Contains(strings.Join(strings.Fields(sp.Notes), " "), got[len(got)-1]) {
				t.Errorf("%s: the notes do not state alpha %s (beta %v)", c.name, got[len(got)-1], b)
			}
		}
		if !slices.Equal(got, c.alphas) {
			t.Errorf("%s: alphas %q, want %q", c.name, got, c.alphas)
		}
	}
	// The earlier Activity S2 rule is what the default avoids: alpha 0.903
	// at beta 1, and beta 0.9 is below alpha.
	sp, _ := cat.Lookup("activity-s2-lying")
	if alpha, bl, _, _, err := psbSplitPriors(sp.Expect.N, sp.Expect.NPos, 0.9); err != nil || alpha < bl {
		t.Errorf("activity-s2-lying at beta 0.9: alpha %.4f, beta %.4f, %v; want alpha above beta", alpha, bl, err)
	}
}

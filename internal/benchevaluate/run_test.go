package benchevaluate

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// tinyDesign has two small synthetic splits: replicate 0 (tuning) with
// logreg on three scales and gbdt, replicate 1 (validation) with logreg.
func tinyDesign() Design {
	return Design{
		Name: "tiny",
		Synth: []SynthSplit{
			{Split{Source: synthHard.Name(), N: 400, C: 0.3, Alpha: 0.3, Beta: 0.9, Rep: 0}, []string{ModelLogReg, ModelGBDT}},
			{Split{Source: synthEasy.Name(), N: 300, C: 0.3, Alpha: 0.5, Beta: 1, Rep: 1}, []string{ModelLogReg}},
		},
		ScaleMaxRows: 400,
	}
}

func tinyRun(t *testing.T, workers int, cache string) *Result {
	t.Helper()
	res, err := Run(context.Background(), Options{Design: tinyDesign(), Seed: 7, Bootstrap: 20, AloneMaxRows: 400,
		Workers: workers, Cache: Cache{Dir: cache}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// numbers is the JSON of a result without its timings.
func numbers(t *testing.T, res *Result) string {
	t.Helper()
	cases := make([]CaseResult, len(res.Cases))
	for i, c := range res.Cases {
		c.Seconds = Seconds{}
		cases[i] = c
	}
	r := *res
	r.Cases = cases
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The same numbers for any number of workers; a second run reads every
// score from the cache (no training time) and gives them again.
func TestRunDeterministic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs evaluate 20 times")
	}
	dir := t.TempDir()
	one := tinyRun(t, 1, dir)
	three := tinyRun(t, 3, t.TempDir())
	if numbers(t, one) != numbers(t, three) {
		t.Error("1 and 3 workers give different numbers")
	}
	again := tinyRun(t, 2, dir)
	if numbers(t, one) != numbers(t, again) {
		t.Error("the cached scores give different numbers")
	}
	for _, c := range again.Cases {
		if c.Seconds.Scores != 0 {
			t.Errorf("%s: trained again (%.2f s) with its scores cached", c.ID, c.Seconds.Scores)
		}
	}
	if len(one.Cases) != 5 {
		t.Fatalf("%d cases, want logreg x 3 scales + gbdt + logreg", len(one.Cases))
	}
	for _, c := range one.Cases {
		if c.Error != "" || c.Estimated == nil || c.Given == nil || len(c.Alone) != 3 {
			t.Errorf("%s: error %q, runs %v %v %d", c.ID, c.Error, c.Estimated != nil, c.Given != nil, len(c.Alone))
		}
		if c.Validation != (c.Rep == 1) {
			t.Errorf("%s: validation %v", c.ID, c.Validation)
		}
		// The truth is the sample's: alpha and beta as counted.
		if want := c.Counts(); c.Alpha != want.Alpha() || c.Beta != want.Beta() || float64(c.Given.Priors.Alpha) != c.Alpha {
			t.Errorf("%s: alpha %v beta %v given %v; want %v, %v", c.ID, c.Alpha, c.Beta, c.Given.Priors.Alpha, want.Alpha(), want.Beta())
		}
	}
}

// With the true priors every recovered number depends on the ranking
// alone, so the raw, logit and rank scales of one split and model (same
// resamples) give the same numbers and intervals.
func TestGivenPriorsScaleInvariant(t *testing.T) {
	if testing.Short() {
		t.Skip("runs evaluate")
	}
	res := tinyRun(t, 2, t.TempDir())
	var ref *CaseResult
	for i, c := range res.Cases {
		if !strings.Contains(c.ID, "/logreg/") || c.Rep != 0 {
			continue
		}
		if ref == nil {
			ref = &res.Cases[i]
			continue
		}
		for _, m := range []string{"auc", "aucpr", "acc", "bacc", "f1", "mcc"} {
			a, b := outcome(*ref, ref.Given, m), outcome(c, c.Given, m)
			if a != b {
				t.Errorf("%s: %s %+v, %s %+v", m, ref.ID, a, c.ID, b)
			}
		}
	}
}

package benchevaluate

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Model names: the classifiers whose held-out scores the cases evaluate.
const (
	ModelLogReg = "logreg"
	ModelGBDT   = "gbdt"
	ModelNNet   = "nnet-bag"
)

// Scale names: the same scores as the model gives them, as their logit, or
// as their normalised rank. Every recovered number depends on the ranking
// only, so with given priors the three give the same numbers; the
// estimators read the scores' values and may not.
const (
	ScaleRaw   = "raw"
	ScaleLogit = "logit"
	ScaleRank  = "rank"
)

// Split is the recipe of one PU sample: which data, how many rows, how
// many of them labeled, and the fractions of positives in L and U.
type Split struct {
	// Source is a catalogued data set's name, or a synthetic source's
	// (SynthSource).
	Source string `json:"source"`
	// N is |L| + |U|.
	N int `json:"n"`
	// C is the labeled fraction: |L| = round(C N).
	C float64 `json:"c"`
	// Alpha and Beta are the nominal fractions of positives in U and L;
	// the sample's own (Counts) differ from them by rounding only.
	Alpha float64 `json:"alpha_nominal"`
	Beta  float64 `json:"beta_nominal"`
	// Rep is the replicate: another draw of the same recipe.
	Rep int `json:"rep"`
}

// ID names the split, and keys its streams and its cached scores.
func (s Split) ID() string {
	return fmt.Sprintf("%s/n%d/c%g/a%g/b%g/r%d", s.Source, s.N, s.C, s.Alpha, s.Beta, s.Rep)
}

// Counts are the sizes of a split's four cells.
type Counts struct {
	PosL, NegL, PosU, NegU int
}

// NL and NU are |L| and |U|.
func (c Counts) NL() int { return c.PosL + c.NegL }
func (c Counts) NU() int { return c.PosU + c.NegU }

// Alpha and Beta are the realised fractions of positives in U and L: the
// truth every case is judged against.
func (c Counts) Alpha() float64 { return float64(c.PosU) / float64(c.NU()) }
func (c Counts) Beta() float64  { return float64(c.PosL) / float64(c.NL()) }

// Counts are |L| = round(C N) with round(Beta |L|) positives and |U| = N -
// |L| with round(Alpha |U|) positives (half away from zero).
func (s Split) Counts() Counts {
	nL := int(math.Round(s.C * float64(s.N)))
	nU := s.N - nL
	posL := int(math.Round(s.Beta * float64(nL)))
	posU := int(math.Round(s.Alpha * float64(nU)))
	return Counts{PosL: posL, NegL: nL - posL, PosU: posU, NegU: nU - posU}
}

// check refuses a split whose L or U would lack a class the recovery needs.
func (s Split) check() error {
	c := s.Counts()
	if c.PosL < 1 || c.PosU < 1 || c.NegU < 1 || c.NL() < 1 {
		return fmt.Errorf("split %s: %d+%d labeled and %d+%d unlabeled (positives+negatives): want a positive in L and U and a negative in U", s.ID(), c.PosL, c.NegL, c.PosU, c.NegU)
	}
	return nil
}

// fits says whether a data set with nPos positives and nNeg negatives can
// supply the split (drawn without replacement).
func (s Split) fits(nPos, nNeg int) bool {
	c := s.Counts()
	return c.PosL+c.PosU <= nPos && c.NegL+c.NegU <= nNeg
}

// Case is one evaluation: a split's scores from one model on one scale.
type Case struct {
	Split
	Model string `json:"model"`
	Scale string `json:"scale"`
	// Validation marks the cases nobody tunes on (ValidationSources,
	// SynthValidationRep).
	Validation bool `json:"validation"`
}

// ID names the case.
func (c Case) ID() string { return c.Split.ID() + "/" + c.Model + "/" + c.Scale }

// scoresID names the case's scores: the split and the model (the scale is
// a transformation of them).
func (c Case) scoresID() string { return c.Split.ID() + "/" + c.Model }

// SynthSource is a synthetic source: datasets/synth's Gaussian, two
// classes N(0, I) and N(delta, I) in D dimensions with |delta| =
// Separation. It supplies any number of rows.
type SynthSource struct {
	D          int
	Separation float64
}

// Name is the source's name in a split: gauss-d<D>-s<Separation>.
func (s SynthSource) Name() string { return fmt.Sprintf("gauss-d%d-s%g", s.D, s.Separation) }

// parseSynth reads a synthetic source's name; ok is false for a data set
// name.
func parseSynth(name string) (SynthSource, bool) {
	rest, ok := strings.CutPrefix(name, "gauss-d")
	if !ok {
		return SynthSource{}, false
	}
	ds, ss, ok := strings.Cut(rest, "-s")
	if !ok {
		return SynthSource{}, false
	}
	d, err1 := strconv.Atoi(ds)
	sep, err2 := strconv.ParseFloat(ss, 64)
	if err1 != nil || err2 != nil || d < 1 || !(sep > 0) {
		return SynthSource{}, false
	}
	return SynthSource{D: d, Separation: sep}, true
}

// The synthetic sources: a harder one (population AUC Phi(1.5/sqrt 2) =
// 0.856) and an easier one (Phi(2.5/sqrt 2) = 0.961).
var (
	synthHard = SynthSource{D: 10, Separation: 1.5}
	synthEasy = SynthSource{D: 10, Separation: 2.5}
)

// ValidationSources are the data sets whose cases form the validation set:
// fixed here, never drawn per run, covering large (casp), middle (anuran,
// spambase), imbalanced (wilt: 5 % positives) and small (pima) data.
var ValidationSources = []string{"casp", "anuran", "spambase", "wilt", "pima"}

// SynthValidationRep is the replicate of the synthetic splits that belongs
// to the validation set (a synthetic source has no data set to hold out,
// so its second draw is held out instead).
const SynthValidationRep = 1

// isValidation says whether a split belongs to the validation set.
func isValidation(s Split) bool {
	if _, ok := parseSynth(s.Source); ok {
		return s.Rep == SynthValidationRep
	}
	return slices.Contains(ValidationSources, s.Source)
}

// priorCombos are the (alpha, beta) of the design, in the order the size
// rotation walks them: clean labels, then one labeled example in ten
// negative.
var priorCombos = [][2]float64{{0.1, 1}, {0.3, 1}, {0.5, 1}, {0.1, 0.9}, {0.3, 0.9}, {0.5, 0.9}}

// Design is a benchmark's set of cases.
type Design struct {
	Name string
	// Real are the catalogued data sets; each gets, per replicate and per
	// (alpha, beta), one split whose size walks the ladder (realSplits).
	Real   []string
	Ladder []int
	// Cs are the labeled fractions, alternated over the splits.
	Cs   []float64
	Reps int
	// Synth are the synthetic splits, listed one by one, with their models.
	Synth []SynthSplit
	// NNetMaxRows is the largest split that nnet-bag scores (the bag of
	// 100 nets is the papers' model, and the slowest to train).
	NNetMaxRows int
	// ScaleMinRows and ScaleMaxRows bound the splits of replicate 0 whose
	// logreg scores are also evaluated as logits and ranks (ScaleMaxRows
	// 0: none).
	ScaleMinRows, ScaleMaxRows int
	// AloneMaxRows is the default of Options.AloneMaxRows: the runs with
	// each estimator alone cost as much again as the estimated run (and
	// DistCurve's bootstrap several times more beyond 10^4 rows).
	AloneMaxRows int
}

// SynthSplit is a synthetic split and the models that score it.
type SynthSplit struct {
	Split
	Models []string
}

// realModels are the models of every real split (nnet-bag up to
// NNetMaxRows).
var realModels = []string{ModelLogReg, ModelGBDT, ModelNNet}

// Quick is the design the team runs while iterating: a few minutes on 2
// cores. Ten data sets (three of them validation), one replicate, sizes
// 150 to 5,000, the three models, raw scores; synthetic splits of 10^4
// and 10^5 rows.
func Quick() Design {
	d := Design{
		Name:         "quick",
		Real:         []string{"bank", "shuttle", "pendigit", "landsat", "mushroom", "pageblock", "concrete", "spambase", "wilt", "pima"},
		Ladder:       []int{150, 500, 1500, 5000},
		Cs:           []float64{0.1, 0.3},
		Reps:         1,
		NNetMaxRows:  100_000,
		AloneMaxRows: 5000,
	}
	for _, s := range []struct {
		n       int
		a, b, c float64
		src     SynthSource
		rep     int
		models  []string
	}{
		{10_000, 0.3, 1, 0.1, synthHard, 0, []string{ModelLogReg, ModelGBDT}},
		{10_000, 0.1, 0.9, 0.3, synthEasy, 1, []string{ModelLogReg}},
		{100_000, 0.5, 0.9, 0.1, synthHard, 0, []string{ModelLogReg}},
	} {
		d.Synth = append(d.Synth, SynthSplit{Split{Source: s.src.Name(), N: s.n, C: s.c, Alpha: s.a, Beta: s.b, Rep: s.rep}, s.models})
	}
	return d
}

// Full is the benchmark behind the published numbers: 24 data sets (five
// of them validation), two replicates, sizes 150 to 30,000 (as far as each
// data set can supply them), the three models, logits and ranks of the
// logistic regression's scores from 1,500 to 15,000 rows; synthetic splits of
// 10^4 (every (alpha, beta), both replicates, three models), 10^5 (every
// (alpha, beta); three models on replicate 0, logreg on replicate 1),
// 3 x 10^5 (two) and 10^6 rows (three splits: logreg, and gbdt on one).
func Full() Design {
	d := Design{
		Name: "full",
		Real: []string{"bank", "shuttle", "activity-s1", "pendigit", "epileptic", "mushroom", "landsat", "wine",
			"thyroid", "pageblock", "parkinsons", "waveform", "abalone", "hiv", "gas", "splice", "concrete",
			"housing", "airfoil", "casp", "anuran", "spambase", "wilt", "pima"},
		Ladder:       []int{150, 500, 1500, 5000, 15000, 30000},
		Cs:           []float64{0.1, 0.3},
		Reps:         2,
		NNetMaxRows:  100_000,
		ScaleMinRows: 1500,
		ScaleMaxRows: 15000,
		AloneMaxRows: 15000,
	}
	all := []string{ModelLogReg, ModelGBDT, ModelNNet}
	lr := []string{ModelLogReg}
	for k, ab := range priorCombos {
		src := []SynthSource{synthHard, synthEasy}[k%2]
		c := d.Cs[k%len(d.Cs)]
		for rep := range 2 {
			d.Synth = append(d.Synth, SynthSplit{Split{Source: src.Name(), N: 10_000, C: c, Alpha: ab[0], Beta: ab[1], Rep: rep}, all})
			models := all
			if rep == 1 {
				models = lr
			}
			d.Synth = append(d.Synth, SynthSplit{Split{Source: src.Name(), N: 100_000, C: c, Alpha: ab[0], Beta: ab[1], Rep: rep}, models})
		}
	}
	for _, s := range []struct {
		n       int
		a, b, c float64
		src     SynthSource
		rep     int
		models  []string
	}{
		{300_000, 0.3, 0.9, 0.3, synthHard, 0, lr},
		{300_000, 0.1, 1, 0.1, synthEasy, 1, lr},
		{1_000_000, 0.3, 1, 0.1, synthHard, 0, []string{ModelLogReg, ModelGBDT}},
		{1_000_000, 0.1, 0.9, 0.3, synthEasy, 0, lr},
		{1_000_000, 0.3, 0.9, 0.1, synthHard, 1, lr},
	} {
		d.Synth = append(d.Synth, SynthSplit{Split{Source: s.src.Name(), N: s.n, C: s.c, Alpha: s.a, Beta: s.b, Rep: s.rep}, s.models})
	}
	return d
}

// DesignNamed returns the design of a name: "quick" or "full".
func DesignNamed(name string) (Design, error) {
	switch name {
	case "quick":
		return Quick(), nil
	case "full":
		return Full(), nil
	}
	return Design{}, fmt.Errorf("design %q: want quick or full", name)
}

// ClassCounts are a data set's numbers of positive and negative rows.
type ClassCounts struct {
	Pos, Neg int
}

// realSplits are the splits of the data set with index i in the design's
// list: for the k-th (alpha, beta) and replicate r, the labeled fraction
// Cs[(k + r) mod len(Cs)] and, of the ladder's sizes F the data set can
// supply at those priors and C, the size F[(i + k) mod |F|] for replicate
// 0 and the largest, F[|F| - 1], for replicate 1 (and any later one).
// Walking the ladder gives every data set a spread of sizes and every size
// a spread of priors without crossing every factor (which the small data
// sets could not supply and the budget could not afford); taking the
// largest for the second replicate uses each data set at its capacity,
// which the size bands above 10^3 need: only a few data sets reach them.
func (d Design) realSplits(i int, name string, cc ClassCounts) []Split {
	var out []Split
	for r := range d.Reps {
		for k, ab := range priorCombos {
			c := d.Cs[(k+r)%len(d.Cs)]
			var feasible []Split
			for _, n := range d.Ladder {
				s := Split{Source: name, N: n, C: c, Alpha: ab[0], Beta: ab[1], Rep: r}
				if s.fits(cc.Pos, cc.Neg) && s.check() == nil {
					feasible = append(feasible, s)
				}
			}
			switch {
			case len(feasible) == 0:
			case r == 0:
				out = append(out, feasible[(i+k)%len(feasible)])
			default:
				out = append(out, feasible[len(feasible)-1])
			}
		}
	}
	return out
}

// Cases expands the design into its cases, sorted by ID, given each real
// data set's class counts (every data set of d.Real must have them).
func (d Design) Cases(counts map[string]ClassCounts) ([]Case, error) {
	var cases []Case
	add := func(s Split, models []string) {
		for _, m := range models {
			if m == ModelNNet && s.N > d.NNetMaxRows {
				continue
			}
			scales := []string{ScaleRaw}
			if m == ModelLogReg && s.Rep == 0 && s.N >= d.ScaleMinRows && s.N <= d.ScaleMaxRows {
				scales = append(scales, ScaleLogit, ScaleRank)
			}
			for _, sc := range scales {
				cases = append(cases, Case{Split: s, Model: m, Scale: sc, Validation: isValidation(s)})
			}
		}
	}
	for i, name := range d.Real {
		cc, ok := counts[name]
		if !ok {
			return nil, fmt.Errorf("design %s: no class counts for data set %s", d.Name, name)
		}
		for _, s := range d.realSplits(i, name, cc) {
			add(s, realModels)
		}
	}
	for _, s := range d.Synth {
		if _, ok := parseSynth(s.Source); !ok {
			return nil, fmt.Errorf("design %s: synthetic split %s: unknown source", d.Name, s.ID())
		}
		if err := s.check(); err != nil {
			return nil, fmt.Errorf("design %s: %w", d.Name, err)
		}
		add(s.Split, s.Models)
	}
	slices.SortFunc(cases, func(a, b Case) int { return strings.Compare(a.ID(), b.ID()) })
	for i := 1; i < len(cases); i++ {
		if cases[i].ID() == cases[i-1].ID() {
			return nil, fmt.Errorf("design %s: case %s listed twice", d.Name, cases[i].ID())
		}
	}
	return cases, nil
}

package pulp

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
)

// VariantAxis is the grid axis of the sensitivity study (protocol
// biased-labeling's per-cell overrides; Variant).
const VariantAxis = "pulp-variant"

// BootstrapReplicates is the number of resamples of the problems behind
// every standard error of the report.
const BootstrapReplicates = 200

// bootstrapSeed seeds the resampling of the problems (fixed: the report
// is a function of the records).
const bootstrapSeed = 2014

// Rows are Table 1's rank-correlation and MAD rows (labeling -> measure
// -> value) and the overall SDs of the PU values (measure -> SD).
type Rows struct {
	Rank, MAD map[string]map[string]float64
	SD        map[string]float64
}

// rowsOf computes Rows from usable records.
func rowsOf(use []usable) Rows {
	var a Analysis
	labelings, pis := map[string]bool{}, map[float64]bool{}
	for _, u := range use {
		labelings[u.labeling], pis[u.pi] = true, true
	}
	for _, l := range PaperLabelings {
		if labelings[l] {
			a.Labelings = append(a.Labelings, l)
		}
	}
	a.Pis = slices.Sorted(maps.Keys(pis))
	a.statistics(use)
	r := Rows{Rank: map[string]map[string]float64{}, MAD: map[string]map[string]float64{}, SD: a.SD}
	for _, l := range a.Labelings {
		r.Rank[l], r.MAD[l] = map[string]float64{}, map[string]float64{}
		for _, m := range Measures {
			r.Rank[l][m.Key], _ = a.GridMean(StatRank, l, m.Key)
			r.MAD[l][m.Key], _ = a.GridMean(StatMAD, l, m.Key)
		}
	}
	return r
}

// bootstrapRows resamples the problems of use with replacement
// BootstrapReplicates times and returns each replicate's Rows; nil with
// fewer than two problems (no spread to resample).
func bootstrapRows(use []usable) []Rows {
	byProblem := map[string][]usable{}
	for _, u := range use {
		byProblem[u.rec.Dataset] = append(byProblem[u.rec.Dataset], u)
	}
	problems := slices.Sorted(maps.Keys(byProblem))
	if len(problems) < 2 {
		return nil
	}
	rng := rand.New(rand.NewPCG(bootstrapSeed, uint64(len(use))))
	out := make([]Rows, BootstrapReplicates)
	for b := range out {
		var sample []usable
		for range problems {
			sample = append(sample, byProblem[problems[rng.IntN(len(problems))]]...)
		}
		out[b] = rowsOf(sample)
	}
	return out
}

// Noise is the bootstrap over problems of an analysis: the replicates of
// its Table-1 rows, from which a claim takes the standard error of a
// difference.
type Noise struct {
	Problems   int
	Replicates []Rows
}

// seOf is the sample SD over the replicates of f (NaN values left out;
// NaN below two values): the bootstrap standard error of f.
func (n *Noise) seOf(f func(Rows) float64) float64 {
	if n == nil {
		return math.NaN()
	}
	var xs []float64
	for _, r := range n.Replicates {
		if x := f(r); !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return sampleSD(xs)
}

// MarginSEs is how many bootstrap standard errors a difference must
// exceed for a comparison claim to hold: a "best" that the noise of the
// problems' draw could reverse is not established.
const MarginSEs = 2

// variantOf is a record's pulp-variant ("base" when it has none).
func variantOf(r results.Record) string {
	if v, ok := r.Grid[VariantAxis]; ok && v != "" {
		return v
	}
	return VariantBase
}

// splitVariants groups usable records by their variant.
func splitVariants(use []usable) map[string][]usable {
	out := map[string][]usable{}
	for _, u := range use {
		v := variantOf(u.rec)
		out[v] = append(out[v], u)
	}
	return out
}

// hasVariants says the records come from a sensitivity run (a record
// with grid axis pulp-variant).
func hasVariants(recs []results.Record) bool {
	for _, r := range recs {
		if _, ok := r.Grid[VariantAxis]; ok {
			return true
		}
	}
	return false
}

// baseRecords are the records of the base variant (all, when none has the
// axis): Table 1, Figure 2 and the claims of a sensitivity run are those
// of its base protocol.
func baseRecords(recs []results.Record) []results.Record {
	var out []results.Record
	for _, r := range recs {
		if variantOf(r) == VariantBase {
			out = append(out, r)
		}
	}
	return out
}

// choiceOf names the open choice a protocol variant varies.
func choiceOf(variant string) string {
	switch {
	case strings.HasPrefix(variant, "labeled-") || strings.HasPrefix(variant, "folds-") || strings.HasPrefix(variant, "positives-"):
		return ChoiceLabeled
	case strings.HasPrefix(variant, "components-") || strings.HasPrefix(variant, "pca-") || strings.HasPrefix(variant, "representativeness-"):
		return ChoiceMixture
	}
	return "protocol"
}

// The choices of the study, in the figure's order.
const (
	ChoiceToday      = "today's protocol"
	ChoiceUnit       = "correlation unit"
	ChoiceLabeled    = "labeled rows per fold"
	ChoiceClassifier = "classifiers"
	ChoicePriors     = "Pr[y=1] grid"
	ChoiceData       = "problems pooled"
	ChoiceMixture    = "mixture model"
)

var choiceOrder = []string{ChoiceToday, ChoiceUnit, ChoiceLabeled, ChoiceMixture, ChoiceClassifier, ChoicePriors, ChoiceData}

// SensOption is one point of the sensitivity study: a choice (one of the
// Choice constants) set to one value (Label), Table 1's rank correlations
// under it (labeling -> measure -> rho, per fold unless the choice is the
// unit) with their bootstrap standard errors over the problems.
type SensOption struct {
	Choice, Label      string
	Rank, SE           map[string]map[string]float64
	Problems, Configs  int
	BestS2, PULPRankS2 string // Scenario 2's best measure; PULP's place there ("1 of 8")
}

// Sensitivity computes the study from a sensitivity run's records: the
// base protocol on the problems every variant ran (today's protocol; the
// reference of every other option), then each choice varied alone. The
// protocol variants are read from the records; the unit, classifiers,
// Pr[y=1] grid and pooled problems are subsets or views of the base
// records. Classifier families are read from pulp.yaml's labels (lin-/rbf-
// kernels; -wu biased-SVM weights, -en Elkan-Noto weights, lin-c the C
// sweep). Nil without the pulp-variant axis.
func Sensitivity(recs []results.Record) []SensOption {
	if !hasVariants(recs) {
		return nil
	}
	_, use := parse(recs)
	byVar := splitVariants(use)
	core := coreProblems(byVar)
	inCore := func(u usable) bool { return core[u.rec.Dataset] }
	base := filterUse(byVar[VariantBase], inCore)
	var out []SensOption
	add := func(choice, label string, use []usable) {
		if len(use) > 0 {
			out = append(out, sensOption(choice, label, use))
		}
	}
	add(ChoiceToday, "base (per fold)", base)
	add(ChoiceUnit, "fold means", foldMeanUse(base))
	for _, v := range slices.Sorted(maps.Keys(byVar)) {
		if v != VariantBase {
			add(choiceOf(v), v, filterUse(byVar[v], inCore))
		}
	}
	for _, c := range []struct {
		label string
		keep  func(string) bool
	}{
		{"linear only", func(c string) bool { return strings.HasPrefix(c, "lin-") }},
		{"RBF only", func(c string) bool { return strings.HasPrefix(c, "rbf-") }},
		{"biased-SVM weights only", func(c string) bool { return strings.Contains(c, "-wu") }},
		{"Elkan-Noto and C sweep only", func(c string) bool { return strings.HasSuffix(c, "-en") || strings.HasPrefix(c, "lin-c") }},
	} {
		sub := filterUse(base, func(u usable) bool { return c.keep(u.classifier) })
		if len(sub) < len(base) {
			add(ChoiceClassifier, c.label, sub)
		}
	}
	add(ChoicePriors, "Pr[y=1] < 0.5", filterUse(base, func(u usable) bool { return u.pi < 0.5 }))
	add(ChoicePriors, "Pr[y=1] >= 0.5", filterUse(base, func(u usable) bool { return u.pi >= 0.5 }))
	for _, d := range []struct{ label, prefix string }{{"text only", "20news"}, {"digits only", "mnist"}} {
		sub := filterUse(base, func(u usable) bool { return strings.HasPrefix(u.rec.Dataset, d.prefix) })
		if len(sub) < len(base) {
			add(ChoiceData, d.label, sub)
		}
	}
	if all := byVar[VariantBase]; len(all) > len(base) {
		add(ChoiceData, "every base problem", all)
	}
	slices.SortStableFunc(out, func(a, b SensOption) int {
		return slices.Index(choiceOrder, a.Choice) - slices.Index(choiceOrder, b.Choice)
	})
	return out
}

// coreProblems are the problems that every variant ran.
func coreProblems(byVar map[string][]usable) map[string]bool {
	var core map[string]bool
	for _, use := range byVar {
		has := map[string]bool{}
		for _, u := range use {
			has[u.rec.Dataset] = true
		}
		if core == nil {
			core = has
			continue
		}
		for p := range core {
			if !has[p] {
				delete(core, p)
			}
		}
	}
	return core
}

func filterUse(use []usable, keep func(usable) bool) []usable {
	var out []usable
	for _, u := range use {
		if keep(u) {
			out = append(out, u)
		}
	}
	return out
}

// sensOption computes one option's rows and their bootstrap SEs.
func sensOption(choice, label string, use []usable) SensOption {
	r := rowsOf(use)
	boot := bootstrapRows(use)
	o := SensOption{Choice: choice, Label: label, Rank: r.Rank, SE: map[string]map[string]float64{}}
	problems, configs := map[string]bool{}, map[[2]string]bool{}
	for _, u := range use {
		problems[u.rec.Dataset], configs[[2]string{u.rec.Dataset, u.classifier}] = true, true
	}
	o.Problems, o.Configs = len(problems), len(configs)
	n := &Noise{Problems: o.Problems, Replicates: boot}
	for l, row := range r.Rank {
		o.SE[l] = map[string]float64{}
		for m := range row {
			o.SE[l][m] = n.seOf(func(x Rows) float64 { return x.Rank[l][m] })
		}
	}
	if row, ok := r.Rank[Scenario2]; ok {
		o.BestS2 = extreme(row, true)
		place := 1
		for _, m := range Measures {
			if m.Key != "pulp" && row[m.Key] > row["pulp"] {
				place++
			}
		}
		o.PULPRankS2 = measureLabel("pulp") + " " + ordinal(place)
	}
	return o
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return strconv.Itoa(n) + "th"
}

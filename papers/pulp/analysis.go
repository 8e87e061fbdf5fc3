package pulp

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// The grid axes the report reads from Record.Grid.
const (
	PriorAxis      = "unlabeled-prior" // Pr[y=1] in the unlabeled set, e.g. "0.3"
	LabelingAxis   = "labeling"        // "random", "scenario1", "scenario2"
	ClassifierAxis = "classifier"      // a classifier label, e.g. "lin-wu1"
)

// The metric keys the report reads from Record.Metrics[measure]: PUKey+"@f"
// and TrueKey+"@f" for the held-out folds f = 1..K, or, for records without
// per-fold keys, PUKey and TrueKey (the means over the folds) as one fold.
const (
	PUKey   = "pu"
	TrueKey = "true"
)

// Measure is one of the paper's eight measures.
type Measure struct {
	Key   string // the record's metric name
	Label string // the paper's column heading
}

// Measures are the paper's columns, in its order.
var Measures = []Measure{
	{"auc", "AUC"}, {"f1", "F1"}, {"ll", "L&L"}, {"mi", "MI"},
	{"pearson", "PEAR"}, {"map", "MAP"}, {"pulp", "PULP"}, {"pseudo-f", "PseudoF"},
}

// The labeling scenarios of the paper (grid axis labeling).
const (
	Random    = "random"
	Scenario1 = "scenario1" // the least representative positives left unlabeled (Fig. 1c)
	Scenario2 = "scenario2" // the most representative positives left unlabeled (Fig. 1d)
)

// PaperLabelings are the paper's scenarios in its order.
var PaperLabelings = []string{Random, Scenario1, Scenario2}

// LabelingName is the paper's name of a labeling.
func LabelingName(l string) string {
	switch l {
	case Random:
		return "random"
	case Scenario1:
		return "Scenario 1"
	case Scenario2:
		return "Scenario 2"
	}
	return l
}

// measureLabel is the paper's heading of a measure key.
func measureLabel(key string) string {
	for _, m := range Measures {
		if m.Key == key {
			return m.Label
		}
	}
	return key
}

// Point is one (labeling, Pr[y=1], measure) of Figure 2.
//
// Per repeat, for each fold f, Rho is Spearman's correlation between the
// measure on PU labels (pu@f) and on the true labels (true@f) over the
// configurations (problem, classifier) of the repeat, and MAD the mean of
// |pu@f - true@f| over them; each is averaged over the folds, then over the
// repeats (each repeat is a replicate of the paper's experiment). A fold
// where the correlation is undefined (fewer than two configurations, or
// constant PU or true values) is left out of Rho's mean and counted in
// UndefinedRho.
type Point struct {
	Labeling string
	Pi       float64
	Measure  string
	Rho, MAD float64 // NaN when no fold defines them
	// Configs is the number of distinct (problem, classifier) pairs with a
	// value of the measure, over every repeat.
	Configs int
	Repeats int // repeats with a value
	// Folds counts the (repeat, fold) samples averaged for MAD;
	// UndefinedRho those of them where Spearman is undefined.
	Folds, UndefinedRho int
}

// Analysis is what the report computes from the records.
type Analysis struct {
	Labelings []string  // the labelings found: the paper's first, in its order, then others sorted
	Pis       []float64 // the Pr[y=1] grid found, ascending
	// Points holds Figure 2, by labeling, then Pr[y=1], then measure (in
	// Measures' order); only the (labeling, Pr[y=1]) pairs with records.
	Points []Point
	// SD and TrueSD are the sample standard deviations (n - 1) of every PU
	// value (pu@f of every usable ok record and fold) and of every true value
	// of each measure; SDCount the number of values.
	SD, TrueSD map[string]float64
	SDCount    map[string]int

	Problems, Classifiers []string // the problems (Record.Dataset) and classifiers found, sorted
	Repeats               []int    // the repeats found
	Folds                 []int    // the fold numbers found (0: records with only the fold means)
	// Records: Total, OK (usable), the failed ones (which have no metrics),
	// and the ok records left out with the reason.
	Total, OK int
	Failed    []results.Record
	Unusable  []string
	// MeanOnly counts the usable records without per-fold keys, whose
	// fold means were used as one fold.
	MeanOnly int

	// FoldMeans is the same analysis over each configuration's fold means
	// (Table 1 (fold means), fig2-foldmeans.csv): its Points and SDs are
	// computed from one (pu, true) pair per record and measure, the
	// record's keys PUKey and TrueKey (or, where it lacks either, the means
	// of its per-fold pairs); its inventory is this analysis'. A point's
	// Folds there counts repeats. The per-fold view is the specification's
	// reading of the paper's "8-fold CV" and the one the claims are judged
	// on; the fold means, free of most of a single fold's sampling noise,
	// are the other reading, which the paper does not rule out. Nil in the
	// fold-mean view itself and in an Analysis built by hand.
	FoldMeans *Analysis
	// FoldMeanView says this is an Analysis.FoldMeans.
	FoldMeanView bool
	// Noise is the bootstrap over the problems (Rows of each resample)
	// that a comparison claim's margin is taken from; nil in an Analysis
	// built by hand or from fewer than two problems.
	Noise *Noise
	// MeansComputed counts the usable records whose fold means were
	// computed from their per-fold pairs, for a measure without both
	// PUKey and TrueKey.
	MeansComputed int
}

type groupKey struct {
	labeling string
	pi       float64
}

// usable is an ok record with its grid values parsed.
type usable struct {
	rec        results.Record
	labeling   string
	pi         float64
	classifier string
	// folds[measure][fold] = (pu, true)
	folds map[string]map[int][2]float64
	// means[measure] = the fold means (pu, true), for the measures in folds
	means map[string][2]float64
}

// foldPairs reads a measure's per-fold (pu@f, true@f) pairs; without any
// per-fold key, the fold means (pu, true) as fold 0. meanOnly says the
// latter.
func foldPairs(m map[string]float64) (pairs map[int][2]float64, meanOnly bool) {
	pairs = map[int][2]float64{}
	perFold := false
	for k, pu := range m {
		s, ok := strings.CutPrefix(k, PUKey+"@")
		if !ok {
			if strings.HasPrefix(k, TrueKey+"@") {
				perFold = true
			}
			continue
		}
		perFold = true
		f, err := strconv.Atoi(s)
		if err != nil || f < 1 {
			continue
		}
		if tr, ok := m[TrueKey+"@"+s]; ok {
			pairs[f] = [2]float64{pu, tr}
		}
	}
	if perFold {
		return pairs, false
	}
	pu, ok1 := m[PUKey]
	tr, ok2 := m[TrueKey]
	if ok1 && ok2 {
		pairs[0] = [2]float64{pu, tr}
		return pairs, true
	}
	return pairs, false
}

// foldMeans returns a measure's fold means: the record's PUKey and TrueKey
// when it has both (the pipeline writes them as the means over its folds),
// otherwise the means of pairs' pu and true values (computed says so).
// Only pairs' measures are asked for, so both views count the same
// (record, measure) pairs.
func foldMeans(m map[string]float64, pairs map[int][2]float64) (v [2]float64, computed bool) {
	pu, ok1 := m[PUKey]
	tr, ok2 := m[TrueKey]
	if ok1 && ok2 {
		return [2]float64{pu, tr}, false
	}
	var ps, ts []float64
	for _, f := range slices.Sorted(maps.Keys(pairs)) { // a fixed order: the same sums on every run
		ps, ts = append(ps, pairs[f][0]), append(ts, pairs[f][1])
	}
	return [2]float64{mean(ps), mean(ts)}, true
}

// Analyze computes Figure 2, the overall standard deviations and the
// inventory of the records, and the same statistics over the fold means
// (Analysis.FoldMeans).
func Analyze(recs []results.Record) Analysis {
	a, use := parse(recs)
	a.finish(use)
	return a
}

// parse reads the usable records and the inventory of recs.
func parse(recs []results.Record) (Analysis, []usable) {
	a := Analysis{Total: len(recs)}
	var use []usable
	for _, r := range recs {
		if r.Status != results.StatusOK {
			a.Failed = append(a.Failed, r)
			continue
		}
		u, reason, meanOnly, computed := parseRecord(r)
		if reason != "" {
			a.Unusable = append(a.Unusable, reason)
			continue
		}
		if meanOnly {
			a.MeanOnly++
		}
		if computed {
			a.MeansComputed++
		}
		a.OK++
		use = append(use, u)
	}
	return a, use
}

// parseRecord reads one ok record; reason says why it is not usable.
func parseRecord(r results.Record) (u usable, reason string, meanOnly, computed bool) {
	lab, ok := r.Grid[LabelingAxis]
	if !ok || lab == "" {
		return u, fmt.Sprintf("%s: no grid value %s", r.Cell, LabelingAxis), false, false
	}
	pi, err := strconv.ParseFloat(r.Grid[PriorAxis], 64)
	if err != nil || math.IsNaN(pi) {
		return u, fmt.Sprintf("%s: grid value %s %q is not a number", r.Cell, PriorAxis, r.Grid[PriorAxis]), false, false
	}
	u = usable{rec: r, labeling: lab, pi: pi, classifier: r.Grid[ClassifierAxis],
		folds: map[string]map[int][2]float64{}, means: map[string][2]float64{}}
	for _, m := range Measures {
		p, mo := foldPairs(r.Metrics[m.Key])
		if len(p) > 0 {
			u.folds[m.Key] = p
			meanOnly = meanOnly || mo
			v, c := foldMeans(r.Metrics[m.Key], p)
			u.means[m.Key] = v
			computed = computed || c
		}
	}
	if len(u.folds) == 0 {
		return u, fmt.Sprintf("%s: no measure with %s and %s values", r.Cell, PUKey, TrueKey), false, false
	}
	return u, "", meanOnly, computed
}

// finish sets the inventory of the usable records and computes both views.
func (a *Analysis) finish(use []usable) {
	labelings, pis := map[string]bool{}, map[float64]bool{}
	problems, classifiers, repeats, folds := map[string]bool{}, map[string]bool{}, map[int]bool{}, map[int]bool{}
	for _, u := range use {
		labelings[u.labeling], pis[u.pi] = true, true
		problems[u.rec.Dataset], classifiers[u.classifier], repeats[u.rec.Repeat] = true, true, true
		for _, p := range u.folds {
			for f := range p {
				folds[f] = true
			}
		}
	}
	a.Labelings = nil
	for _, l := range PaperLabelings {
		if labelings[l] {
			a.Labelings = append(a.Labelings, l)
		}
	}
	for _, l := range slices.Sorted(maps.Keys(labelings)) {
		if !slices.Contains(PaperLabelings, l) {
			a.Labelings = append(a.Labelings, l)
		}
	}
	a.Pis = slices.Sorted(maps.Keys(pis))
	a.Problems = slices.Sorted(maps.Keys(problems))
	a.Classifiers = slices.Sorted(maps.Keys(classifiers))
	a.Repeats = slices.Sorted(maps.Keys(repeats))
	a.Folds = slices.Sorted(maps.Keys(folds))

	// The fold-mean view: the same computation, each record's fold means
	// standing as its only fold (fold 0), so that a repeat's statistic is
	// taken once over the configurations' fold means.
	fm := *a
	fm.FoldMeanView = true
	fmUse := foldMeanUse(use)
	fm.statistics(fmUse)
	a.statistics(use)
	if boot := bootstrapRows(use); boot != nil {
		a.Noise = &Noise{Problems: len(a.Problems), Replicates: boot}
		fm.Noise = &Noise{Problems: len(a.Problems), Replicates: bootstrapRows(fmUse)}
	}
	a.FoldMeans = &fm
}

// foldMeanUse is use with each record's fold means as its only fold (0).
func foldMeanUse(use []usable) []usable {
	meanUse := make([]usable, len(use))
	for i, u := range use {
		meanUse[i] = u
		meanUse[i].folds = map[string]map[int][2]float64{}
		for m, v := range u.means {
			meanUse[i].folds[m] = map[int][2]float64{0: v}
		}
	}
	return meanUse
}

// statistics computes the overall standard deviations and the points of
// the usable records' folds.
func (a *Analysis) statistics(use []usable) {
	a.SD, a.TrueSD, a.SDCount, a.Points = map[string]float64{}, map[string]float64{}, map[string]int{}, nil
	// Overall standard deviations, over every labeling and Pr[y=1].
	for _, m := range Measures {
		var pu, tr []float64
		for _, u := range use {
			for _, f := range slices.Sorted(maps.Keys(u.folds[m.Key])) {
				p := u.folds[m.Key][f]
				pu, tr = append(pu, p[0]), append(tr, p[1])
			}
		}
		a.SD[m.Key], a.TrueSD[m.Key], a.SDCount[m.Key] = sampleSD(pu), sampleSD(tr), len(pu)
	}

	groups := map[groupKey][]usable{}
	for _, u := range use {
		k := groupKey{u.labeling, u.pi}
		groups[k] = append(groups[k], u)
	}
	for _, l := range a.Labelings {
		for _, pi := range a.Pis {
			g, ok := groups[groupKey{l, pi}]
			if !ok {
				continue
			}
			for _, m := range Measures {
				a.Points = append(a.Points, point(l, pi, m.Key, g))
			}
		}
	}
}

// point computes one Point from the usable records of a (labeling, Pr[y=1]).
func point(labeling string, pi float64, measure string, g []usable) Point {
	p := Point{Labeling: labeling, Pi: pi, Measure: measure}
	type cfg struct{ problem, classifier string }
	configs := map[cfg]bool{}
	byRepeat := map[int][]usable{}
	for _, u := range g {
		if len(u.folds[measure]) == 0 {
			continue
		}
		configs[cfg{u.rec.Dataset, u.classifier}] = true
		byRepeat[u.rec.Repeat] = append(byRepeat[u.rec.Repeat], u)
	}
	p.Configs = len(configs)
	var rhos, mads []float64
	for _, rep := range slices.Sorted(maps.Keys(byRepeat)) {
		us := byRepeat[rep]
		fs := map[int]bool{}
		for _, u := range us {
			for f := range u.folds[measure] {
				fs[f] = true
			}
		}
		var foldRho, foldMAD []float64
		for _, f := range slices.Sorted(maps.Keys(fs)) {
			var x, y []float64
			for _, u := range us {
				if v, ok := u.folds[measure][f]; ok {
					x, y = append(x, v[0]), append(y, v[1])
				}
			}
			p.Folds++
			foldMAD = append(foldMAD, report.MeanAbsDeviation(x, y))
			rho, err := report.Spearman(x, y)
			if err != nil {
				p.UndefinedRho++
				continue
			}
			foldRho = append(foldRho, rho)
		}
		if len(foldMAD) > 0 {
			p.Repeats++
			mads = append(mads, mean(foldMAD))
		}
		if len(foldRho) > 0 {
			rhos = append(rhos, mean(foldRho))
		}
	}
	p.Rho, p.MAD = mean(rhos), mean(mads)
	return p
}

// Point returns the point of a labeling, Pr[y=1] and measure.
func (a Analysis) Point(labeling string, pi float64, measure string) (Point, bool) {
	for _, p := range a.Points {
		if p.Labeling == labeling && p.Pi == pi && p.Measure == measure {
			return p, true
		}
	}
	return Point{}, false
}

// GridMean is Table 1's value of a labeling and measure: the mean over the
// Pr[y=1] grid of the points' Rho (stat StatRank) or MAD (StatMAD), over the
// values of Pr[y=1] where it is defined; n is their number (0: NaN).
func (a Analysis) GridMean(stat, labeling, measure string) (v float64, n int) {
	var xs []float64
	for _, p := range a.Points {
		if p.Labeling != labeling || p.Measure != measure {
			continue
		}
		x := p.Rho
		if stat == StatMAD {
			x = p.MAD
		}
		if !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	return mean(xs), len(xs)
}

// UndefinedRho sums Point.UndefinedRho and Point.Folds over the points.
func (a Analysis) UndefinedRho() (undefined, folds int) {
	for _, p := range a.Points {
		undefined += p.UndefinedRho
		folds += p.Folds
	}
	return undefined, folds
}

// mean is the mean of xs, NaN when empty.
func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// sampleSD is the standard deviation with the n - 1 denominator (NaN below
// two values), by two passes.
func sampleSD(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	m := mean(xs)
	var s float64
	for _, x := range xs {
		s += float64((x - m) * (x - m))
	}
	return math.Sqrt(s / float64(len(xs)-1))
}

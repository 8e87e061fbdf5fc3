package cli

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/kmpe"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/internal/scorefile"
)

// maxKMRows is the most rows `pueval estimate --method km1|km2` reads
// without --km-max-rows: KM's kernel matrix is dense (n x n).
const maxKMRows = 100_000

// featureMatrix is the table's features as an n x d matrix; nil without
// feature columns.
func featureMatrix(t *scorefile.Table) *mat.Dense {
	d := len(t.Columns.Features)
	if d == 0 {
		return nil
	}
	return mat.NewDense(t.N(), d, t.X)
}

// featureRows copies the given rows of the table's features.
func featureRows(t *scorefile.Table, rows []int) *mat.Dense {
	d := len(t.Columns.Features)
	data := make([]float64, 0, len(rows)*d)
	for _, i := range rows {
		data = append(data, t.X[i*d:(i+1)*d]...)
	}
	return mat.NewDense(len(rows), d, data)
}

// labelRows returns the indices of the labeled and of the unlabeled rows.
func labelRows(t *scorefile.Table) (l, u []int) {
	for i, x := range t.Labels {
		if x == scorefile.Labeled {
			l = append(l, i)
		} else {
			u = append(u, i)
		}
	}
	return l, u
}

// someOfEach refuses a table without labeled or without unlabeled rows.
func someOfEach(t *scorefile.Table, path string) error {
	if nL := t.Count(scorefile.Labeled); nL == 0 || nL == t.N() {
		return fmt.Errorf("%s: %d labeled and %d unlabeled rows: want some of each", path, nL, t.N()-nL)
	}
	return nil
}

// kmSubsampleStream is the stream of --seed that draws km1's and km2's
// subsample of --km-max-rows rows.
const kmSubsampleStream = 3

// minKMRows is the fewest rows --km-max-rows takes.
const minKMRows = 20

// kmRowsHint is what to add to an error of km1 or km2: how to read fewer
// rows when their n x n matrices do not fit in memory.
func kmRowsHint(err error) string {
	var size *kmpe.SizeError
	if !errors.As(err, &size) {
		return ""
	}
	return fewerKMRows(size.MaxRows, "read a random subsample with --km-max-rows %d (or fewer)")
}

// fewerKMRows says how to read at most maxRows rows (format takes it), or
// that not even the fewest --km-max-rows takes fit.
func fewerKMRows(maxRows int, format string) string {
	if maxRows < minKMRows {
		return fmt.Sprintf("; not even %d rows (the fewest --km-max-rows takes) fit in the memory available: free some, or raise GOMEMLIMIT where it is set", minKMRows)
	}
	return "; " + fmt.Sprintf(format, maxRows)
}

// hintKMRows adds kmRowsHint's advice to the errors of estimators that
// refused their rows for lack of memory.
func hintKMRows(rs []evaluate.EstimatorResult) {
	for i := range rs {
		if n := rs[i].MaxRows; n != nil {
			rs[i].Error += fewerKMRows(*n, "lower --km-max-rows to %d or fewer")
		}
	}
}

// kmSpec is how km1 and km2 read the input: every column but the label,
// --ignore and the score column is a feature, or those --feature-columns
// names; without --km-max-rows at most maxKMRows rows.
func (f *estimateFlags) kmSpec(r *scorefile.Reader) (scorefile.Spec, error) {
	spec := scorefile.Spec{Label: f.cols.labelColumn(), Ignore: splitList(f.ignore), IgnoreFlag: "--ignore",
		Features: scorefile.OtherColumns, FeatureColumns: splitList(f.featureCols), FeatureFlag: "--feature-columns"}
	spec.Ignore = ignoreScoreColumn(r, spec, f.cols.score)
	if !f.set["km-max-rows"] {
		spec.MaxRows = maxKMRows
		spec.TooMany = "KM's kernel matrix is dense (n x n): pass --km-max-rows N to read a random subsample of N rows"
	}
	cols, err := r.Columns(spec)
	if err != nil {
		return spec, err
	}
	if len(cols.Features) == 0 {
		return spec, fmt.Errorf("%s: no feature column besides the label and the ignored ones (columns: %q)", r.Name(), r.Header())
	}
	return spec, nil
}

// ignoreScoreColumn returns spec.Ignore with the score column added when
// the header has one that spec names for no role: a model's scores are no
// feature unless --feature-columns says so.
func ignoreScoreColumn(r *scorefile.Reader, spec scorefile.Spec, score string) []string {
	if !r.Has(score) {
		return spec.Ignore
	}
	named := append(append(slices.Clone(spec.Ignore), spec.FeatureColumns...), spec.Label.Name, spec.Truth.Name)
	if slices.ContainsFunc(named, func(n string) bool { return strings.EqualFold(strings.TrimSpace(n), strings.TrimSpace(score)) }) {
		return spec.Ignore
	}
	return append(slices.Clone(spec.Ignore), score)
}

// estimateKM runs KM1 or KM2 on the features of the input.
func estimateKM(ctx context.Context, e *env, f *estimateFlags) error {
	c, err := classprior.Defaults(f.method)
	if err != nil {
		return err
	}
	km := c.(*classprior.KM)
	km.Features = f.features
	if err := km.Validate(); err != nil {
		return fmt.Errorf("--features %q: %w", f.features, err)
	}
	est, err := km.New()
	if err != nil {
		return err
	}
	t, err := readInput(ctx, f.input, scorefile.Spec{}, f.kmSpec)
	if err != nil {
		return err
	}
	if err := someOfEach(t, f.input); err != nil {
		return err
	}
	lRows, uRows := labelRows(t)
	note := "features " + f.features + " over " + strconv.Itoa(len(t.Columns.Features)) + " columns"
	if f.set["km-max-rows"] {
		var sub bool
		lRows, uRows, sub = evaluate.SubsampleRows(lRows, uRows, f.kmRows, rand.New(rand.NewPCG(f.seed, kmSubsampleStream)))
		if sub {
			note += fmt.Sprintf(", a random subsample of %d of the %d rows (seed %d)", len(lRows)+len(uRows), t.N(), f.seed)
		}
	}
	r, err := est.Estimate(ctx, classprior.Input{LabeledFeatures: featureRows(t, lRows), UnlabeledFeatures: featureRows(t, uRows)}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w%s", f.input, err, kmRowsHint(err))
	}
	r.Warnings = append(r.Warnings, t.SuspectFeatures(suspectHint)...)
	return writeEstimate(e, f.format, r, len(lRows), len(uRows), note, t.Columns)
}

// suspectHint says how to leave out a feature column that looks like an
// identifier.
const suspectHint = "if it is not a feature, leave it out with --ignore (or list the features with --feature-columns)"

// kmTrace is the "km" object of `pueval estimate --method km1|km2`: the
// quantities of the published KM code's run (Ramaswamy, Scott, Tewari
// 2016) in its order, for comparing an estimate with that code's, step by
// step: the kernel width sigma (sigma_median times the factor of the
// largest RKHS distance delta), d(1) and d(1.05), the thresholds nu1 (KM2)
// and nu2 (KM1), and the bisection on lambda in [1, 8] of each, kappa =
// (lambda* - 1)/lambda*.
type kmTrace struct {
	Features    string   `json:"features"`
	NMixture    int      `json:"n_mixture"`
	NComponent  int      `json:"n_component"`
	MedianD2    number   `json:"median_d2"`
	SigmaMedian number   `json:"sigma_median"`
	Sigmas      []number `json:"sigmas"`
	Deltas      []number `json:"deltas"`
	SigmaIndex  int      `json:"sigma_index"`
	Sigma       number   `json:"sigma"`
	Delta       number   `json:"delta"`
	D100        number   `json:"d100"`
	D105        number   `json:"d105"`
	BeginSlope  number   `json:"begin_slope"`
	Nu1         number   `json:"nu1"`
	Nu2Raw      number   `json:"nu2_raw"`
	Nu2         number   `json:"nu2"`
	Nu2Replaced bool     `json:"nu2_replaced"`
	Lambda1     number   `json:"lambda1"` // lambda* of KM1 (threshold nu2)
	Lambda2     number   `json:"lambda2"` // lambda* of KM2 (threshold nu1)
	KM1         number   `json:"km1"`
	KM2         number   `json:"km2"`
	Path1       []kmStep `json:"path1"`
	Path2       []kmStep `json:"path2"`
	QPs         int      `json:"qps"` // distinct QPs solved
}

// kmStep is one bisection step: at mid the slope (d(mid + 0.02) - d(mid))
// x 50 against the threshold nu x delta; above moves hi to mid.
type kmStep struct {
	Lo        number `json:"lo"`
	Hi        number `json:"hi"`
	Mid       number `json:"mid"`
	D         number `json:"d"`
	DPlus     number `json:"d_plus"`
	Slope     number `json:"slope"`
	Threshold number `json:"threshold"`
	Above     bool   `json:"above"`
}

func newKMTrace(r *kmpe.Result) *kmTrace {
	nums := func(xs []float64) []number {
		out := make([]number, len(xs))
		for i, x := range xs {
			out[i] = number(x)
		}
		return out
	}
	path := func(steps []kmpe.Step) []kmStep {
		out := make([]kmStep, len(steps))
		for i, st := range steps {
			out[i] = kmStep{Lo: number(st.Lo), Hi: number(st.Hi), Mid: number(st.Mid), D: number(st.D), DPlus: number(st.DPlus),
				Slope: number(st.Slope), Threshold: number(st.Threshold), Above: st.Above}
		}
		return out
	}
	return &kmTrace{Features: string(r.Scaling), NMixture: r.N, NComponent: r.M, MedianD2: number(r.MedianD2),
		SigmaMedian: number(r.SigmaMedian), Sigmas: nums(r.Sigmas[:]), Deltas: nums(r.Deltas[:]), SigmaIndex: r.SigmaIndex,
		Sigma: number(r.Sigma), Delta: number(r.Delta), D100: number(r.D100), D105: number(r.D105),
		BeginSlope: number(r.BeginSlope), Nu1: number(r.Nu1), Nu2Raw: number(r.Nu2Raw), Nu2: number(r.Nu2),
		Nu2Replaced: r.Nu2Replaced, Lambda1: number(r.Lambda1), Lambda2: number(r.Lambda2), KM1: number(r.KM1),
		KM2: number(r.KM2), Path1: path(r.Path1), Path2: path(r.Path2), QPs: len(r.Solves)}
}

// estimateDistCurve runs DistCurve on a score file.
func estimateDistCurve(ctx context.Context, e *env, f *estimateFlags) error {
	c, _ := classprior.Defaults(classprior.DistCurveName)
	est, err := c.New()
	if err != nil {
		return err
	}
	d, err := readScores(ctx, f.input, f.cols)
	if err != nil {
		return err
	}
	labeled, unlabeled := splitScores(d)
	r, err := est.Estimate(ctx, classprior.Input{Labeled: labeled, Unlabeled: unlabeled}, rand.New(rand.NewPCG(f.seed, 0)))
	if err != nil {
		return fmt.Errorf("%s: %w", f.input, err)
	}
	return writeEstimate(e, f.format, r, len(labeled), len(unlabeled), fmt.Sprintf("seed %d", f.seed), d.Columns)
}

// writeEstimate writes the estimate of a method without likelihood curves.
func writeEstimate(e *env, format string, r classprior.Estimate, nl, nu int, note string, cols scorefile.Columns) error {
	rep := estimateReport{Method: r.Method, Alpha: number(r.Alpha), Beta: number(r.Beta), NLabeled: nl, NUnlabeled: nu,
		Runs: []estimateRun{}, Warnings: r.Warnings, Columns: cols}
	if rep.Warnings == nil {
		rep.Warnings = []string{}
	}
	if r.KM != nil {
		rep.KM = newKMTrace(r.KM)
	}
	if format == "json" {
		return writeJSON(e.stdout, rep)
	}
	t := newTable(e.stdout)
	columnsRow(t, rep.Columns)
	t.row("method", rep.Method, note)
	t.row("alpha", float64(rep.Alpha), "positives among the unlabeled")
	t.row("beta", float64(rep.Beta), "positives among the labeled (1: clean labels)")
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	if km := rep.KM; km != nil {
		t.row("sigma", float64(km.Sigma), fmt.Sprintf("kernel width: %.6g x sigma_median %.6g (the largest delta of 5 widths)",
			float64(km.Sigmas[km.SigmaIndex]/km.SigmaMedian), float64(km.SigmaMedian)))
		t.row("delta", float64(km.Delta), "RKHS distance of the mixture's and the component's mean embeddings")
		t.row("nu1", float64(km.Nu1), "KM2's threshold on the slope (x delta)")
		t.row("nu2", float64(km.Nu2), "KM1's threshold (nu1 when 1/sqrt(min(N, M))/delta > 0.9)")
		t.row("lambda1", float64(km.Lambda1), fmt.Sprintf("KM1 = (lambda1 - 1)/lambda1 = %.6g", float64(km.KM1)))
		t.row("lambda2", float64(km.Lambda2), fmt.Sprintf("KM2 = (lambda2 - 1)/lambda2 = %.6g", float64(km.KM2)))
	}
	for _, w := range rep.Warnings {
		t.row("warning", w)
	}
	return t.flush()
}

package cli

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/estimators/kmpe"
	"github.com/pueval/pueval/internal/scorefile"
)

// Limits of a feature CSV: KM's kernel is dense, so `pueval estimate`
// reads far fewer rows than a score file; `pueval evaluate` trains a
// classifier and reads up to maxTableCells values.
const (
	maxFeatureRows    = 100_000
	maxFeatureColumns = 10_000
	maxTableCells     = 200_000_000 // 1.6 GB of float64
)

// featureFile is a feature CSV split into its labeled and unlabeled rows.
type featureFile struct {
	Columns              []string // the feature columns, in file order
	Labeled, Unlabeled   *mat.Dense
	NLabeled, NUnlabeled int
}

// readFeatureCSV reads a CSV with a header: the label column holds 1 for a
// labeled row and 0 for an unlabeled one (1.0, 0.0, true and false too);
// every other column is a finite number. Errors name the file, the line
// and the column.
func readFeatureCSV(ctx context.Context, path, label string) (*featureFile, error) {
	ft, err := readFeatureTable(ctx, path, tableSpec{label: label, maxRows: maxFeatureRows,
		tooMany: "KM's kernel matrix is dense (n x n); subsample the rows"})
	if err != nil {
		return nil, err
	}
	ff := &featureFile{Columns: ft.Columns}
	lRows, uRows := ft.split()
	ff.NLabeled, ff.NUnlabeled = len(lRows), len(uRows)
	ff.Labeled, ff.Unlabeled = ft.rows(lRows), ft.rows(uRows)
	return ff, nil
}

// tableSpec says how to read a feature table.
type tableSpec struct {
	label   string   // the column of the PU label (1 labeled, 0 unlabeled); required
	truth   string   // a column of true classes (1 positive, 0 negative), or ""
	score   string   // a column of scores, or ""
	ignore  []string // columns that are neither features nor the above
	maxRows int
	tooMany string // what to say when there are more rows
	// noFeatures allows a table without feature columns (a score file).
	noFeatures bool
}

// featureTable is a CSV of examples: features, PU labels and optionally
// true classes and scores, in file order.
type featureTable struct {
	Columns []string   // the feature columns, in file order
	X       *mat.Dense // n x len(Columns); nil without feature columns
	Labeled []bool
	Truth   []bool    // nil without a truth column
	Scores  []float64 // nil without a score column
}

// split returns the indices of the labeled and of the unlabeled rows.
func (ft *featureTable) split() (l, u []int) {
	for i, b := range ft.Labeled {
		if b {
			l = append(l, i)
		} else {
			u = append(u, i)
		}
	}
	return l, u
}

// rows copies the given rows of X.
func (ft *featureTable) rows(idx []int) *mat.Dense {
	_, d := ft.X.Dims()
	data := make([]float64, 0, len(idx)*d)
	for _, i := range idx {
		data = append(data, ft.X.RawRowView(i)...)
	}
	return mat.NewDense(len(idx), d, data)
}

// readFeatureTable reads a CSV with a header: the label column holds 1 for
// a labeled row and 0 for an unlabeled one (1.0, 0.0, true and false too),
// the truth column likewise 1 for a positive, the score column and every
// other column not ignored a finite number. Errors name the file, the line
// and the column.
func readFeatureTable(ctx context.Context, path string, spec tableSpec) (*featureTable, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, 1<<34))
	r.ReuseRecord = true
	r.Comment = '#'
	head, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header with the %q column and the features", path, spec.label)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = slices.Clone(head)
	for i := range head {
		head[i] = strings.TrimSpace(head[i])
	}
	cols, err := findTableColumns(path, head, spec)
	if err != nil {
		return nil, err
	}
	ft := &featureTable{Columns: cols.names}
	if cols.truth >= 0 {
		ft.Truth = []bool{}
	}
	if cols.score >= 0 {
		ft.Scores = []float64{}
	}
	x, nL, err := ft.readRows(ctx, r, path, cols, spec)
	if err != nil {
		return nil, err
	}
	n := len(ft.Labeled)
	if nL == 0 || nL == n {
		return nil, fmt.Errorf("%s: %d labeled and %d unlabeled rows: want some of each", path, nL, n-nL)
	}
	if d := len(cols.feat); d > 0 {
		ft.X = mat.NewDense(n, d, x)
	}
	return ft, nil
}

// tableColumns are the columns of a feature table: the header, the indices
// of the label, truth and score columns (-1: none), and the feature columns'
// indices and names.
type tableColumns struct {
	head                []string
	label, truth, score int
	feat                []int
	names               []string
}

// findTableColumns finds the columns of spec in the header head of file path.
func findTableColumns(path string, head []string, spec tableSpec) (*tableColumns, error) {
	find := func(name, flag string) (int, error) {
		if name == "" {
			return -1, nil
		}
		i := slices.Index(head, name)
		if i < 0 {
			// As in score files, a column's name may differ in case.
			i = slices.IndexFunc(head, func(h string) bool { return strings.EqualFold(h, name) })
		}
		if i < 0 {
			return -1, fmt.Errorf("%s: no column %q in the header (columns: %s); name it with %s", path, name, strings.Join(head, ", "), flag)
		}
		return i, nil
	}
	c := &tableColumns{head: head}
	var err error
	if c.label, err = find(spec.label, "--label"); err != nil {
		return nil, err
	}
	if c.truth, err = find(spec.truth, "--truth"); err != nil {
		return nil, err
	}
	if c.score, err = find(spec.score, "--score"); err != nil {
		return nil, err
	}
	skip := map[int]bool{c.label: true, c.truth: true, c.score: true}
	for _, name := range spec.ignore {
		i, err := find(name, "--ignore")
		if err != nil {
			return nil, err
		}
		skip[i] = true
	}
	for i, h := range head {
		if !skip[i] {
			c.names, c.feat = append(c.names, h), append(c.feat, i)
		}
	}
	if d := len(c.feat); (d == 0 && !spec.noFeatures) || d > maxFeatureColumns {
		return nil, fmt.Errorf("%s: %d feature columns (header: %s): want 1 to %d besides the label", path, d, strings.Join(head, ", "), maxFeatureColumns)
	}
	return c, nil
}

// readRows reads the rows of r into ft (labels, truths, scores) and returns
// the features, row after row, and the number of labeled rows.
func (ft *featureTable) readRows(ctx context.Context, r *csv.Reader, path string, cols *tableColumns, spec tableSpec) (x []float64, nL int, err error) {
	d := len(cols.feat)
	for {
		if len(ft.Labeled)%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, 0, fmt.Errorf("%s: stopped after %d rows: %w", path, len(ft.Labeled), context.Cause(ctx))
			}
		}
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return x, nL, nil
		}
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(ft.Labeled) >= spec.maxRows || (len(ft.Labeled)+1)*d > maxTableCells {
			return nil, 0, fmt.Errorf("%s:%d: more than %d rows: %s", path, line, len(ft.Labeled), spec.tooMany)
		}
		if x, err = ft.appendRow(x, rec, path, line, cols); err != nil {
			return nil, 0, err
		}
		if ft.Labeled[len(ft.Labeled)-1] {
			nL++
		}
	}
}

// appendRow parses one record, on line line of file path, into ft and
// appends its features to x.
func (ft *featureTable) appendRow(x []float64, rec []string, path string, line int, cols *tableColumns) ([]float64, error) {
	number := func(i int) (float64, error) {
		v := rec[i]
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s:%d: column %q: %q is not a finite number", path, line, cols.head[i], v)
		}
		return x, nil
	}
	isLab, err := scorefile.ParseLabel(rec[cols.label])
	if err != nil {
		return nil, fmt.Errorf("%s:%d: column %q: %v", path, line, cols.head[cols.label], err)
	}
	ft.Labeled = append(ft.Labeled, isLab)
	if ti := cols.truth; ti >= 0 {
		pos, ok := parseTruth(rec[ti])
		if !ok {
			return nil, fmt.Errorf("%s:%d: column %q: %q: want 1 (positive) or 0 (negative)", path, line, cols.head[ti], rec[ti])
		}
		ft.Truth = append(ft.Truth, pos)
	}
	if cols.score >= 0 {
		v, err := number(cols.score)
		if err != nil {
			return nil, err
		}
		ft.Scores = append(ft.Scores, v)
	}
	for _, i := range cols.feat {
		v, err := number(i)
		if err != nil {
			return nil, err
		}
		x = append(x, v)
	}
	return x, nil
}

// parseTruth reads a true class as a label is read (1, 0 and their
// spellings, true, false).
func parseTruth(s string) (bool, bool) {
	b, err := scorefile.ParseLabel(s)
	return b, err == nil
}

// estimateKM runs KM1 or KM2 on a feature CSV.
func estimateKM(ctx context.Context, e *env, method, input, label, features, format string) error {
	c, err := classprior.Defaults(method)
	if err != nil {
		return err
	}
	km := c.(*classprior.KM)
	km.Features = features
	if err := km.Validate(); err != nil {
		return fmt.Errorf("--features %q: %w", features, err)
	}
	est, err := km.New()
	if err != nil {
		return err
	}
	ff, err := readFeatureCSV(ctx, input, label)
	if err != nil {
		return err
	}
	r, err := est.Estimate(ctx, classprior.Input{LabeledFeatures: ff.Labeled, UnlabeledFeatures: ff.Unlabeled}, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	return writeEstimate(e, format, r, ff.NLabeled, ff.NUnlabeled, "features "+features+" over "+strconv.Itoa(len(ff.Columns))+" columns")
}

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
func estimateDistCurve(ctx context.Context, e *env, input string, seed uint64, format string) error {
	c, _ := classprior.Defaults(classprior.DistCurveName)
	est, err := c.New()
	if err != nil {
		return err
	}
	d, err := scorefile.ReadFileContext(ctx, input)
	if err != nil {
		return err
	}
	labeled, unlabeled := split(d)
	r, err := est.Estimate(ctx, classprior.Input{Labeled: labeled, Unlabeled: unlabeled}, rand.New(rand.NewPCG(seed, 0)))
	if err != nil {
		return fmt.Errorf("%s: %w", input, err)
	}
	return writeEstimate(e, format, r, len(labeled), len(unlabeled), fmt.Sprintf("seed %d", seed))
}

// writeEstimate writes the estimate of a method without likelihood curves.
func writeEstimate(e *env, format string, r classprior.Estimate, nl, nu int, note string) error {
	rep := estimateReport{Method: r.Method, Alpha: number(r.Alpha), Beta: number(r.Beta), NLabeled: nl, NUnlabeled: nu,
		Runs: []estimateRun{}, Warnings: r.Warnings}
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

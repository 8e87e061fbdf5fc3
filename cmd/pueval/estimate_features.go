package main

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
	li, err := find(spec.label, "--label")
	if err != nil {
		return nil, err
	}
	ti, err := find(spec.truth, "--truth")
	if err != nil {
		return nil, err
	}
	si, err := find(spec.score, "--score")
	if err != nil {
		return nil, err
	}
	skip := map[int]bool{li: true, ti: true, si: true}
	for _, name := range spec.ignore {
		i, err := find(name, "--ignore")
		if err != nil {
			return nil, err
		}
		skip[i] = true
	}
	ft := &featureTable{}
	var feat []int
	for i, h := range head {
		if !skip[i] {
			ft.Columns, feat = append(ft.Columns, h), append(feat, i)
		}
	}
	d := len(feat)
	if (d == 0 && !spec.noFeatures) || d > maxFeatureColumns {
		return nil, fmt.Errorf("%s: %d feature columns (header: %s): want 1 to %d besides the label", path, d, strings.Join(head, ", "), maxFeatureColumns)
	}
	if ti >= 0 {
		ft.Truth = []bool{}
	}
	if si >= 0 {
		ft.Scores = []float64{}
	}
	number := func(line, i int, v string) (float64, error) {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%s:%d: column %q: %q is not a finite number", path, line, head[i], v)
		}
		return x, nil
	}
	var x []float64
	nL := 0
	for {
		if len(ft.Labeled)%4096 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("%s: stopped after %d rows: %w", path, len(ft.Labeled), context.Cause(ctx))
			}
		}
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		line, _ := r.FieldPos(0)
		if len(ft.Labeled) >= spec.maxRows || (len(ft.Labeled)+1)*d > maxTableCells {
			return nil, fmt.Errorf("%s:%d: more than %d rows: %s", path, line, len(ft.Labeled), spec.tooMany)
		}
		isLab, err := scorefile.ParseLabel(rec[li])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: column %q: %v", path, line, head[li], err)
		}
		ft.Labeled = append(ft.Labeled, isLab)
		if isLab {
			nL++
		}
		if ti >= 0 {
			pos, ok := parseTruth(rec[ti])
			if !ok {
				return nil, fmt.Errorf("%s:%d: column %q: %q: want 1 (positive) or 0 (negative)", path, line, head[ti], rec[ti])
			}
			ft.Truth = append(ft.Truth, pos)
		}
		if si >= 0 {
			v, err := number(line, si, rec[si])
			if err != nil {
				return nil, err
			}
			ft.Scores = append(ft.Scores, v)
		}
		for _, i := range feat {
			v, err := number(line, i, rec[i])
			if err != nil {
				return nil, err
			}
			x = append(x, v)
		}
	}
	n := len(ft.Labeled)
	if nL == 0 || nL == n {
		return nil, fmt.Errorf("%s: %d labeled and %d unlabeled rows: want some of each", path, nL, n-nL)
	}
	if d > 0 {
		ft.X = mat.NewDense(n, d, x)
	}
	return ft, nil
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
	if format == "json" {
		return writeJSON(e.stdout, rep)
	}
	t := newTable(e.stdout)
	t.row("method", rep.Method, note)
	t.row("alpha", float64(rep.Alpha), "positives among the unlabeled")
	t.row("beta", float64(rep.Beta), "positives among the labeled (1: clean labels)")
	t.row("n_labeled", rep.NLabeled)
	t.row("n_unlabeled", rep.NUnlabeled)
	for _, w := range rep.Warnings {
		t.row("warning", w)
	}
	return t.flush()
}

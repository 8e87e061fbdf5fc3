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

// Limits of a feature CSV: KM's kernel is dense, so far fewer rows than a
// score file; a line is one row of features.
const (
	maxFeatureRows    = 100_000
	maxFeatureColumns = 10_000
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(io.LimitReader(f, 1<<31))
	r.ReuseRecord = true
	head, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: empty file: want a header with the %q column and the features", path, label)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	head = slices.Clone(head)
	li := slices.Index(head, label)
	if li < 0 {
		return nil, fmt.Errorf("%s: no column %q in the header (columns: %s); name it with --label", path, label, strings.Join(head, ", "))
	}
	if len(head) < 2 || len(head) > maxFeatureColumns+1 {
		return nil, fmt.Errorf("%s: %d columns: want the label and 1 to %d features", path, len(head), maxFeatureColumns)
	}
	ff := &featureFile{}
	for i, h := range head {
		if i != li {
			ff.Columns = append(ff.Columns, h)
		}
	}
	d := len(ff.Columns)
	var lab, unl []float64
	for line := 2; ; line++ {
		if line%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, context.Cause(ctx)
			}
		}
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if ff.NLabeled+ff.NUnlabeled >= maxFeatureRows {
			return nil, fmt.Errorf("%s: more than %d rows: KM's kernel matrix is dense (n x n); subsample the rows", path, maxFeatureRows)
		}
		isLab, err := scorefile.ParseLabel(rec[li])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: column %q: %v", path, line, label, err)
		}
		row := make([]float64, 0, d)
		for i, v := range rec {
			if i == li {
				continue
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("%s:%d: column %q: %q is not a finite number", path, line, head[i], v)
			}
			row = append(row, x)
		}
		if isLab {
			lab = append(lab, row...)
			ff.NLabeled++
		} else {
			unl = append(unl, row...)
			ff.NUnlabeled++
		}
	}
	if ff.NLabeled == 0 || ff.NUnlabeled == 0 {
		return nil, fmt.Errorf("%s: %d labeled and %d unlabeled rows: want some of each", path, ff.NLabeled, ff.NUnlabeled)
	}
	ff.Labeled = mat.NewDense(ff.NLabeled, d, lab)
	ff.Unlabeled = mat.NewDense(ff.NUnlabeled, d, unl)
	return ff, nil
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

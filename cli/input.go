package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/pueval/pueval/internal/scorefile"
)

// The practitioner commands (metrics, correct, estimate, bounds, evaluate)
// read their --input through package scorefile: one reader, one label
// convention (1 labeled; 0 or empty unlabeled; known negatives only with
// bounds --negatives), one set of limits, and the columns named by the
// same flags.

// columnFlags are the flags that name an input's columns.
type columnFlags struct {
	label, score string
}

// add declares --label and --score on fs.
func (c *columnFlags) add(fs *flag.FlagSet) {
	fs.StringVar(&c.label, "label", "label", "the `column` of the labels: 1 = labeled, 0 or empty = unlabeled (also 1.0, 0.0, true, false)")
	fs.StringVar(&c.score, "score", "score", "the `column` of the scores (higher = more positive)")
}

// labelColumn and scoreColumn are the flags' columns for a Spec.
func (c columnFlags) labelColumn() scorefile.Column {
	return scorefile.Column{Name: c.label, Flag: "--label"}
}
func (c columnFlags) scoreColumn() scorefile.Column {
	return scorefile.Column{Name: c.score, Flag: "--score"}
}

// scoreSpec reads the score and label columns of a score file; every other
// column is ignored.
func (c columnFlags) scoreSpec() scorefile.Spec {
	return scorefile.Spec{Label: c.labelColumn(), Score: c.scoreColumn()}
}

// readInput opens path, lets choose pick the spec from the header (nil:
// spec as given), and reads the rows: one open, one pass, so that a pipe
// or FIFO works.
func readInput(ctx context.Context, path string, spec scorefile.Spec, choose func(*scorefile.Reader) (scorefile.Spec, error)) (*scorefile.Table, error) {
	r, err := scorefile.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if choose != nil {
		if spec, err = choose(r); err != nil {
			return nil, err
		}
	}
	return r.Read(spec)
}

// readScores reads a score file's score and label columns.
func readScores(ctx context.Context, path string, c columnFlags) (*scorefile.Table, error) {
	return readInput(ctx, path, c.scoreSpec(), nil)
}

// splitScores returns the scores of the labeled and of the unlabeled rows.
func splitScores(t *scorefile.Table) (labeled, unlabeled []float64) {
	for i, s := range t.Scores {
		if t.Labels[i] == scorefile.Labeled {
			labeled = append(labeled, s)
		} else {
			unlabeled = append(unlabeled, s)
		}
	}
	return labeled, unlabeled
}

// notInput refuses an output path (of flag) that is the input file itself,
// which writing would overwrite before or while it is read. A path that
// does not exist yet is not the input.
func notInput(flagName, out, input string) error {
	if out == "" {
		return nil
	}
	oi, err := os.Stat(out)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	ii, ierr := os.Stat(input)
	if err != nil || ierr != nil {
		return nil // the write (or the read) names the problem
	}
	if os.SameFile(oi, ii) {
		return fmt.Errorf("%s %s: that is the input file (--input %s): writing it would overwrite the data", flagName, out, input)
	}
	return nil
}

// columnsRow is the table row that says which column was read as what.
func columnsRow(t *table, c scorefile.Columns) { t.row("columns", c.String()) }

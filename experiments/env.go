package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"
)

// Env is the runner's side of the plug-in contract: what a cell's truths
// and measures may ask of the runner beyond the cell's own values
// (CellRun). The runner gives each cell its own Env; a test gives a
// plug-in a fake one (package plugintest).
type Env interface {
	// SupervisedScores returns the scores of the given rows (indices into
	// the cell's data set; nil: every row) from the cell's classifier
	// trained on every row of the data set with the true labels and scored
	// out of bag. The runner trains it once per data set and classifier and
	// keeps it in the score cache. A ranking (a data set without features)
	// has none: an error.
	SupervisedScores(ctx context.Context, rows []int) ([]float64, error)
	// Streams are the cell's named random streams.
	Streams() Streams
}

// Streams are a cell's named random streams: every random draw of a
// plug-in comes from one of them, so a cell's result depends only on its
// seed and never on the order or the number of workers. Two calls with the
// same arguments return two copies of the same stream.
type Streams struct {
	cell *Cell
}

// CellStreams returns the streams of a cell (its Seed, and for Shared the
// experiment's seed, data set, axis values and repeat).
func CellStreams(c *Cell) Streams { return Streams{cell: c} }

// Rand returns the cell's stream for a purpose ("split" is the protocol's;
// a measure's Rand is "measure/" + its purpose).
func (s Streams) Rand(purpose string) *rand.Rand {
	return derive(s.cell.Seed, purpose)
}

// Shared returns a stream that the cells of one data set and repeat share
// whenever their values of the named axes agree, whatever their other axes
// say (Cell.SharedSeed): for what must not change along the other axes,
// such as the rows that every classifier of a comparison is trained and
// measured on.
func (s Streams) Shared(purpose string, axes ...string) *rand.Rand {
	return derive(s.cell.SharedSeed(axes...), purpose)
}

// cellEnv is the runner's Env of one cell.
type cellEnv struct {
	r    *Runner
	data *Data
	cell *Cell
}

func (e cellEnv) Streams() Streams { return CellStreams(e.cell) }

func (e cellEnv) SupervisedScores(ctx context.Context, rows []int) ([]float64, error) {
	all, err := e.r.supervised(ctx, e.data, e.cell)
	if err != nil || rows == nil {
		return all, err
	}
	out := make([]float64, len(rows))
	for i, row := range rows {
		if row < 0 || row >= len(all) {
			return nil, fmt.Errorf("row %d of a data set of %d rows", row, len(all))
		}
		out[i] = all[row]
	}
	return out, nil
}

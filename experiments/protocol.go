package experiments

import (
	"context"
	"math/rand/v2"
)

// ProtocolConfig is the options of a PU protocol (registry Protocols; the
// config's protocol: {name: ..., options}).
type ProtocolConfig interface {
	Plugin
	// Axes lists the grid axes the protocol reads, with the values the grid
	// gets when the config does not list an axis.
	Axes() []AxisUse
	// DatasetOptions returns fresh per-data-set options with their defaults
	// (a pointer the loader decodes a datasets: entry's remaining keys
	// into), or nil when the protocol takes none: then any key besides name
	// and source is an error.
	DatasetOptions() DatasetOptions
	// New returns the protocol.
	New() (Protocol, error)
}

// DatasetOptions are a protocol's options for one data set (e.g. the
// number of labeled examples of a small data set).
type DatasetOptions interface {
	Validate() error
}

// Protocol turns a cell's data into a PU split.
type Protocol interface {
	// Split draws the cell's labeled and unlabeled sets from the cell's
	// streams (in.Rand, in.Streams) and nothing else. It returns an error,
	// never panics, when the data cannot give the split (too few positives,
	// beta <= alpha, ...): the cell fails with that message. A long
	// computation (a model fitted to choose the labeled rows) honours ctx.
	Split(ctx context.Context, in SplitInput) (Split, error)
}

// SplitInput is what a protocol splits.
type SplitInput struct {
	Data *Data
	// Options are the data set's DatasetOptions (nil when the protocol
	// takes none).
	Options DatasetOptions
	// Cell holds the cell's axis values.
	Cell *Cell
	// Grid holds every value of every axis (a protocol may size its sets so
	// that every beta of the grid fits).
	Grid *Grid
	// Rand is the cell's stream "split" (Streams.Rand("split")).
	Rand *rand.Rand
	// Streams are the cell's named streams, for draws that must be shared
	// with other cells (Streams.Shared).
	Streams Streams
}

// Split is a cell's PU split: row indices into the data.
type Split struct {
	Labeled   []int // L: the labeled examples (labeled positive)
	Unlabeled []int // U
	// Negatives are known negatives (labeled negative) for protocols that
	// have them; nil otherwise. They are not scored as part of L or U.
	Negatives []int
	// Folds, when not nil, are the protocol's cross-validation folds: one
	// fold index (0..k-1) per row of Labeled followed by Unlabeled. The PU
	// classifier then scores each row with the model trained on the other
	// folds (it must be a classifiers.FoldScorer), and per-fold measures
	// (CellRun.Folds) read them.
	Folds []int
}

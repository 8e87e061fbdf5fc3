package results

import (
	"encoding/json"
	"fmt"
	"math"
)

// SchemaVersion is the version of the record and manifest format. Readers
// upgrade schema-1 records (UpgradeRecord) and reject other versions.
const SchemaVersion = 2

// MaxCurvePoints bounds the points of a recorded curve: enough to draw it,
// few enough that a record stays a few tens of KB.
const MaxCurvePoints = 500

// Status values of a record.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// Record is the result of one cell of an experiment grid.
type Record struct {
	Schema     int               `json:"schema"`
	Experiment string            `json:"experiment"`
	Cell       string            `json:"cell"` // canonical identity, e.g. "bank/beta=0.95/repeat=3"
	Dataset    string            `json:"dataset"`
	Grid       map[string]string `json:"grid,omitempty"` // grid values as canonical text
	Repeat     int               `json:"repeat"`
	// Seed of the cell, decimal text: JSON numbers lose precision above 2^53.
	Seed  string `json:"seed"`
	Sizes Sizes  `json:"sizes"`
	// True class prior of the unlabeled set and positive fraction of the labeled set.
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	// Estimates by estimator ID (the config's `as`, by default the
	// estimator's name), one per estimator that succeeded.
	Estimates map[string]Estimate `json:"estimates,omitempty"`
	// Metrics by metric name ("auc", "aucpr", "acc", ...), then by key
	// ("pu", "truth:traditional", "indirect:real", "direct:alphamax-n", ...;
	// see the key constants).
	Metrics map[string]map[string]float64 `json:"metrics,omitempty"`
	// Curves holds curves a measure records for the report's figures (e.g.
	// the lower and upper ROC curves of a bounds measure), by name, each a
	// list of (x, y) points downsampled to at most MaxCurvePoints.
	Curves   map[string][][2]float64 `json:"curves,omitempty"`
	Status   string                  `json:"status"`
	Error    string                  `json:"error,omitempty"`
	Warnings []string                `json:"warnings,omitempty"`
	// Seconds spent per stage; excluded from comparisons of results.
	Timings map[string]float64 `json:"timings,omitempty"`
	// Kernel names the classifier's compute kernel (e.g. scalar, avx512):
	// score-cache keys carry its numerics, so the scores were computed by a
	// kernel with the same numerics even when they came from the cache.
	Kernel string `json:"kernel,omitempty"`
	// Work describes the training of the cell's classifier, absent when its
	// scores came from the score cache; like Timings it is not a result.
	Work *Work `json:"work,omitempty"`
}

// Work describes the training of one bag of models (means over its models).
type Work struct {
	Models      int     `json:"models"`
	Epochs      float64 `json:"epochs"`        // optimiser iterations per model
	TrainRows   float64 `json:"train_rows"`    // distinct rows with a training weight per model
	ValOnlyRows float64 `json:"val_only_rows"` // distinct rows with only a validation weight per model
	Inputs      float64 `json:"inputs"`        // features used per model
	GFlop       float64 `json:"gflop"`         // nominal GFLOP of the whole bag's training
}

// Sizes are the sizes of the data set and of the PU split of a cell.
type Sizes struct {
	N         int `json:"n"`                   // examples in the data set
	D         int `json:"d"`                   // features
	NPos      int `json:"n_pos"`               // positives in the data set
	Labeled   int `json:"labeled"`             // |L|
	Unlabeled int `json:"unlabeled"`           // |U|
	Negatives int `json:"negatives,omitempty"` // known negatives, for protocols that have them
}

// Estimate is the output of a class-prior estimator in a cell.
type Estimate struct {
	Method   string   `json:"method"`
	Alpha    float64  `json:"alpha"`
	Beta     float64  `json:"beta"`
	Warnings []string `json:"warnings,omitempty"`
}

// Validate checks that a record can be stored and read back: identity set,
// known status, and only finite numbers (JSON has no NaN or Inf).
func (r *Record) Validate() error {
	if r.Cell == "" || r.Experiment == "" {
		return fmt.Errorf("record without experiment or cell id")
	}
	if r.Status != StatusOK && r.Status != StatusFailed {
		return fmt.Errorf("cell %s: status %q is not %q or %q", r.Cell, r.Status, StatusOK, StatusFailed)
	}
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
	if bad(r.Alpha) || bad(r.Beta) {
		return fmt.Errorf("cell %s: alpha %v or beta %v is not finite", r.Cell, r.Alpha, r.Beta)
	}
	for name, e := range r.Estimates {
		if bad(e.Alpha) || bad(e.Beta) {
			return fmt.Errorf("cell %s: estimate %s (%v, %v) is not finite", r.Cell, name, e.Alpha, e.Beta)
		}
	}
	for name, pts := range r.Curves {
		if len(pts) > MaxCurvePoints {
			return fmt.Errorf("cell %s: curve %s has %d points, more than %d", r.Cell, name, len(pts), MaxCurvePoints)
		}
		for _, p := range pts {
			if bad(p[0]) || bad(p[1]) {
				return fmt.Errorf("cell %s: curve %s has the point (%v, %v)", r.Cell, name, p[0], p[1])
			}
		}
	}
	for m, byEst := range r.Metrics {
		for est, v := range byEst {
			if bad(v) {
				return fmt.Errorf("cell %s: metric %s/%s is %v", r.Cell, m, est, v)
			}
		}
	}
	return nil
}

// Marshal encodes the record as one line of JSON (with the trailing newline).
// Map keys are sorted by encoding/json, so equal records give equal bytes.
func (r *Record) Marshal() ([]byte, error) {
	if err := r.Validate(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("cell %s: %w", r.Cell, err)
	}
	return append(b, '\n'), nil
}

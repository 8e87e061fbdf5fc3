package experiments

import (
	"context"
	"fmt"
)

// TruthConfig is the options of a truth (registry Truths; the config's
// truths: list): a definition of "the true value" that recovered metrics
// are compared with.
type TruthConfig interface {
	Plugin
	New() (Truth, error)
}

// Truth gives the scores that, judged with the true labels, define the
// true value of a metric.
type Truth interface {
	// Scores returns one score per row of the cell (c.Rows: L then U).
	Scores(ctx context.Context, c *CellRun) ([]float64, error)
	// On is the set the truth is judged on: SetAuto (the set the measure's
	// recovery refers to), SetUnlabeled or SetAll (L u U).
	On() string
}

// Sets a truth is judged on.
const (
	SetAuto      = "auto"      // the measure's own set: U for auc and aucpr, L u U for the threshold measures
	SetUnlabeled = "unlabeled" // the unlabeled set U
	SetAll       = "all"       // L u U
)

// TruthOptions are the options every built-in truth takes.
type TruthOptions struct {
	// Set is the set the truth is judged on (YAML on:): auto (default),
	// unlabeled or all.
	Set string `yaml:"on"`
}

func (o TruthOptions) validate(name string) error {
	switch o.Set {
	case SetAuto, SetUnlabeled, SetAll:
		return nil
	}
	return fmt.Errorf("truth %s: on = %q: want %s, %s or %s", name, o.Set, SetAuto, SetUnlabeled, SetAll)
}

// SameModel is the truth "same-model": the evaluated model's own scores
// judged with the true labels, the quantity the recovery formulas estimate
// (AAAI-2017 and PSB-2019 theory).
//
//	truths: [{name: same-model, on: auto}]
type SameModel struct {
	TruthOptions `yaml:",inline"`
}

func (t *SameModel) Name() string        { return "same-model" }
func (t *SameModel) Validate() error     { return t.TruthOptions.validate(t.Name()) }
func (t *SameModel) Key() string         { return "same-model on=" + t.Set }
func (t *SameModel) New() (Truth, error) { return t, t.Validate() }
func (t *SameModel) On() string          { return t.Set }
func (t *SameModel) Scores(_ context.Context, c *CellRun) ([]float64, error) {
	return c.Scores, nil
}

// Traditional is the truth "traditional": a separately trained supervised
// model, the experiment's classifier trained on the whole data set with
// the true labels, scored out of bag, once per data set (AAAI-2017's
// tables: "we first established the ground truth performance ... in a
// standard supervised setting"). It needs a data set with features.
//
//	truths: [{name: traditional, on: auto}]
type Traditional struct {
	TruthOptions `yaml:",inline"`
}

func (t *Traditional) Name() string        { return "traditional" }
func (t *Traditional) Validate() error     { return t.TruthOptions.validate(t.Name()) }
func (t *Traditional) Key() string         { return "traditional on=" + t.Set }
func (t *Traditional) New() (Truth, error) { return t, t.Validate() }
func (t *Traditional) On() string          { return t.Set }

// Scores returns the supervised model's scores of the cell's rows.
func (t *Traditional) Scores(ctx context.Context, c *CellRun) ([]float64, error) {
	return c.SupervisedScores(ctx)
}

// Compile-time checks.
var (
	_ TruthConfig = (*SameModel)(nil)
	_ Truth       = (*SameModel)(nil)
	_ TruthConfig = (*Traditional)(nil)
	_ Truth       = (*Traditional)(nil)
)

func init() {
	Truths.Register("same-model", "the evaluated model's own scores judged with the true labels",
		func() TruthConfig { return &SameModel{TruthOptions{Set: SetAuto}} })
	Truths.Register("traditional", "a supervised model trained on the whole data set with the true labels (out of bag), judged with them",
		func() TruthConfig { return &Traditional{TruthOptions{Set: SetAuto}} })
}

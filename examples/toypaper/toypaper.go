// Package toypaper is a whole (toy) paper as pueval plug-ins, registered
// when the package is imported: a data source, a grid axis, a PU protocol, a
// measure and a report. Nothing in experiments/ or report/ names it. It is
// the worked example of docs/extending.md, and its test runs it end to end.
//
// The toy paper's claim is the identity of the AUL paper between the area
// under the lift curve and the AUC of the same PU ranking,
//
//	AUL_PU = n_L/(2n) + (1 - n_L/n) AUC_PU,
//
// n_L labeled examples among n: AUL carries no more information than AUC.
package toypaper

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/datasets"
	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// Config is the toy paper's experiment config.
//
//go:embed toypaper.yaml
var Config []byte

// Axis is the grid axis "toy-fraction": the labeled fraction of the positives.
const Axis = "toy-fraction"

// Blobs is the source "toy-blobs": two Gaussian blobs in the plane, the
// negatives around (0, 0), the positives around (distance, 0), unit
// variance; the Bayes AUC is Phi(distance/sqrt 2).
type Blobs struct {
	N                int     `yaml:"n"`
	PositiveFraction float64 `yaml:"positive_fraction"`
	Distance         float64 `yaml:"distance"`
}

func (b *Blobs) Name() string { return "toy-blobs" }
func (b *Blobs) Kind() string { return experiments.KindFeatures }
func (b *Blobs) Key() string {
	return fmt.Sprintf("toy-blobs n=%d positive_fraction=%v distance=%v", b.N, b.PositiveFraction, b.Distance)
}
func (b *Blobs) New() (experiments.Source, error) { return b, b.Validate() }

func (b *Blobs) Validate() error {
	if b.N < 10 || !(b.PositiveFraction > 0 && b.PositiveFraction < 1) || math.IsNaN(b.Distance) || math.IsInf(b.Distance, 0) {
		return fmt.Errorf("toy-blobs: n = %d, positive_fraction = %v, distance = %v: want n >= 10, a fraction in (0, 1) and a finite distance",
			b.N, b.PositiveFraction, b.Distance)
	}
	return nil
}

// Load draws the blobs from env.Rand (the same data in every cell).
func (b *Blobs) Load(_ context.Context, env experiments.SourceEnv) (*experiments.Data, error) {
	nPos := int(math.Round(b.PositiveFraction * float64(b.N)))
	x := make([]float64, 2*b.N)
	y := make([]bool, b.N)
	for i := range b.N {
		y[i] = i < nPos
		x[2*i], x[2*i+1] = env.Rand.NormFloat64(), env.Rand.NormFloat64()
		if y[i] {
			x[2*i] += b.Distance
		}
	}
	return &experiments.Data{Name: env.Name, X: mat.NewDense(b.N, 2, x), Y: y, Fingerprint: datasets.Fingerprint(x, y, 2)}, nil
}

// SCAR is the protocol "toy-scar": a fraction (the cell's toy-fraction) of
// the positives, drawn at random, is labeled; every other example is
// unlabeled, at most max_unlabeled of them (0: all).
type SCAR struct {
	MaxUnlabeled int `yaml:"max_unlabeled"`
}

func (p *SCAR) Name() string                               { return "toy-scar" }
func (p *SCAR) Key() string                                { return "toy-scar max_unlabeled=" + strconv.Itoa(p.MaxUnlabeled) }
func (p *SCAR) New() (experiments.Protocol, error)         { return p, p.Validate() }
func (p *SCAR) DatasetOptions() experiments.DatasetOptions { return nil }
func (p *SCAR) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{{Name: Axis, Default: []string{"0.1", "0.4"}}}
}

func (p *SCAR) Validate() error {
	if p.MaxUnlabeled < 0 {
		return fmt.Errorf("toy-scar: max_unlabeled = %d: want >= 0", p.MaxUnlabeled)
	}
	return nil
}

// Split labels the fraction of the positives.
func (p *SCAR) Split(_ context.Context, in experiments.SplitInput) (experiments.Split, error) {
	f, _ := in.Cell.Float(Axis)
	var pos, rest []int
	for i, y := range in.Data.Y {
		if y {
			pos = append(pos, i)
		} else {
			rest = append(rest, i)
		}
	}
	in.Rand.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	k := int(math.Round(f * float64(len(pos))))
	if k < 1 || k == len(pos) {
		return experiments.Split{}, fmt.Errorf("toy-scar: %v of %d positives labels %d", f, len(pos), k)
	}
	rest = append(rest, pos[k:]...)
	in.Rand.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	if p.MaxUnlabeled > 0 && len(rest) > p.MaxUnlabeled {
		rest = rest[:p.MaxUnlabeled]
	}
	return experiments.Split{Labeled: pos[:k], Unlabeled: rest}, nil
}

// AUL is the measure "toy-aul": the area under the lift curve of the PU
// ranking (key pu) and of each truth on all the data (truth:ID). It takes
// no options.
type AUL struct{}

func (m *AUL) Name() string                      { return "toy-aul" }
func (m *AUL) Key() string                       { return "toy-aul/v1" }
func (m *AUL) Validate() error                   { return nil }
func (m *AUL) New() (experiments.Measure, error) { return m, nil }

// Measure records metric "aul".
func (m *AUL) Measure(_ context.Context, c *experiments.CellRun, out *experiments.Values) error {
	pu, err := c.PU()
	if err != nil {
		return err
	}
	out.Set("aul", results.PU, pu.AUL())
	for _, t := range c.TruthRankings(experiments.SetAll) {
		out.Set("aul", results.TruthKey(t.ID), t.AUL())
	}
	return nil
}

// Write is the report "toypaper": per data set and labeled fraction, the
// mean AUL_PU, the mean AUL of the first truth, and the mean deviation from
// the identity n_L/(2n) + (1 - n_L/n) AUC_PU.
func Write(dir string, in report.Input) (string, error) {
	type acc struct {
		n                 int
		pu, truth, offset float64
	}
	groups := map[string]*acc{}
	var order []string
	truthKey := ""
	if len(in.Manifest.Truths) > 0 {
		truthKey = results.TruthKey(in.Manifest.Truths[0])
	}
	for _, r := range in.Records {
		aul, ok := r.Metrics["aul"]
		if r.Status != results.StatusOK || !ok {
			continue
		}
		g := r.Dataset + "\x00" + r.Grid[Axis]
		a := groups[g]
		if a == nil {
			a = &acc{}
			groups[g] = a
			order = append(order, g)
		}
		nL, n := float64(r.Sizes.Labeled), float64(r.Sizes.Labeled+r.Sizes.Unlabeled)
		a.n++
		a.pu += aul[results.PU]
		a.truth += aul[truthKey]
		a.offset += aul[results.PU] - (nL/(2*n) + (1-nL/n)*r.Metrics["auc"][results.PU])
	}
	t := report.Table{
		Caption: "Toy paper: AUL of the PU ranking, of the truth, and its deviation from n_L/(2n) + (1 - n_L/n) AUC_PU",
		Labels:  []report.Column{{Name: "data"}, {Name: Axis}, {Name: "runs"}},
		Values:  []report.Column{{Name: "AUL_PU"}, {Name: "AUL (truth)"}, {Name: "identity deviation", Signed: true}},
	}
	for _, g := range order {
		a := groups[g]
		ds, frac, _ := strings.Cut(g, "\x00")
		k := float64(a.n)
		t.Rows = append(t.Rows, report.Row{
			Labels: []report.Label{{Text: ds}, {Text: frac}, {Text: strconv.Itoa(a.n)}},
			Values: []float64{a.pu / k, a.truth / k, a.offset / k},
		})
	}
	if err := t.WriteFiles(dir, "toy-table"); err != nil {
		return "", err
	}
	return "<h2>Toy paper: AUL is an affine function of AUC</h2>\n" + t.HTML(), nil
}

func init() {
	experiments.RegisterAxis(experiments.Axis{
		Name:     Axis,
		Doc:      "the toy paper's labeled fraction of the positives, in (0, 1)",
		Parse:    parseFraction,
		Examples: [2]string{"0.2", "0.5"},
	})
	experiments.Sources.Register("toy-blobs", "two Gaussian blobs in the plane (the toy paper)",
		func() experiments.SourceConfig { return &Blobs{N: 1000, PositiveFraction: 0.5, Distance: 2} })
	experiments.Protocols.Register("toy-scar", "a fraction of the positives labeled, the rest unlabeled (the toy paper)",
		func() experiments.ProtocolConfig { return &SCAR{} })
	experiments.Measures.Register("toy-aul", "the area under the lift curve, PU and true (the toy paper)",
		func() experiments.MeasureConfig { return &AUL{} })
	report.Register(report.Paper{Name: "toypaper", Title: "Toy paper", Write: Write})
}

// parseFraction reads a value of the toy-fraction axis.
func parseFraction(file string, n *yaml.Node) (experiments.AxisValue, experiments.Errors) {
	var f float64
	if err := n.Decode(&f); err != nil || !(f > 0 && f < 1) {
		return experiments.AxisValue{}, experiments.Errors{{File: file, Line: n.Line,
			Msg: fmt.Sprintf("grid.%s: %q: want a number in (0, 1)", Axis, n.Value)}}
	}
	return experiments.AxisValue{Text: strconv.FormatFloat(f, 'g', -1, 64), Value: f}, nil
}

// Compile-time checks.
var (
	_ experiments.SourceConfig   = (*Blobs)(nil)
	_ experiments.Source         = (*Blobs)(nil)
	_ experiments.ProtocolConfig = (*SCAR)(nil)
	_ experiments.Protocol       = (*SCAR)(nil)
	_ experiments.MeasureConfig  = (*AUL)(nil)
	_ experiments.Measure        = (*AUL)(nil)
)

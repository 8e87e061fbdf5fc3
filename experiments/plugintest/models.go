package plugintest

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/pueval/pueval/classifiers"
	"github.com/pueval/pueval/datasets/synth"
	"github.com/pueval/pueval/estimators/classprior"
	"github.com/pueval/pueval/experiments"
)

// Classifier checks the registered classifier name (package classifiers):
// its options, two fits with the same seed, and a fit under a cancelled
// context.
func Classifier(t *testing.T, name string, o Options) {
	t.Helper()
	if _, err := classifiers.Defaults(name); err != nil {
		t.Fatal(err)
	}
	defaults := func() experiments.Plugin { c, _ := classifiers.Defaults(name); return c }
	checkOptions(t, "classifier", name, defaults, o.Required)
	x, y, err := synth.Gaussian(rand.New(rand.NewPCG(3, 3)), 300, 100, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	data := classifiers.Data{X: mat.NewDense(300, 3, x), Y: y}
	c := withRequired(t, defaults, o.Required).(classifiers.Config)
	s, err := c.New()
	if err != nil {
		t.Fatal(err)
	}
	a, err1 := s.Score(context.Background(), data, 5)
	b, err2 := s.Score(context.Background(), data, 5)
	if err1 != nil || err2 != nil || !slices.Equal(a.Scores, b.Scores) {
		t.Errorf("classifier %s: two fits with the same seed: %v / %v, equal scores %v", name, err1, err2, err1 == nil && err2 == nil && slices.Equal(a.Scores, b.Scores))
	}
	_, err = s.Score(cancelled(), data, 5)
	checkCancelled(t, "classifier "+name+": Score", err)
}

// Estimator checks the registered class-prior estimator name (package
// classprior): its options, two estimates from the same stream, and an
// estimate under a cancelled context.
func Estimator(t *testing.T, name string, o Options) {
	t.Helper()
	if _, err := classprior.Defaults(name); err != nil {
		t.Fatal(err)
	}
	defaults := func() experiments.Plugin { c, _ := classprior.Defaults(name); return c }
	checkOptions(t, "estimator", name, defaults, o.Required)
	s, err := synth.PU(rand.New(rand.NewPCG(6, 6)), synth.Normal(2, 1), synth.Normal(0, 1), 0.3, 0.9, 300, 3000)
	if err != nil {
		t.Fatal(err)
	}
	c := withRequired(t, defaults, o.Required).(classprior.Config)
	e, err := c.New()
	if err != nil {
		t.Fatal(err)
	}
	in := classprior.Input{Labeled: s.Labeled, Unlabeled: s.Unlabeled}
	if fr, ok := c.(classprior.FeatureReader); ok && fr.ReadsFeatures() {
		// One feature: the score itself.
		in.LabeledFeatures = mat.NewDense(len(s.Labeled), 1, slices.Clone(s.Labeled))
		in.UnlabeledFeatures = mat.NewDense(len(s.Unlabeled), 1, slices.Clone(s.Unlabeled))
	}
	estimate := func(ctx context.Context) (classprior.Estimate, error) {
		return e.Estimate(ctx, in, rand.New(rand.NewPCG(1, 2)))
	}
	a, err1 := estimate(context.Background())
	b, err2 := estimate(context.Background())
	if err1 != nil || err2 != nil || a.Alpha != b.Alpha || a.Beta != b.Beta {
		t.Errorf("estimator %s: two estimates from the same stream: %v / %v, (%v, %v) vs (%v, %v)", name, err1, err2, a.Alpha, a.Beta, b.Alpha, b.Beta)
	}
	_, err = estimate(cancelled())
	checkCancelled(t, "estimator "+name+": Estimate", err)
}

package evaluate

import (
	"context"
	"strings"
	"testing"
)

// warningsOf runs evaluate on the scores with the options and returns the
// messages by code.
func warningsOf(t *testing.T, scores []float64, labeled []bool, opts Options) map[string]string {
	t.Helper()
	res, err := Run(context.Background(), Input{Scores: scores, Labeled: labeled}, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, w := range res.Warnings {
		out[w.Code] = w.Message
	}
	return out
}

// The bounds' clean-label warning fires for a given beta below 1, and not
// for estimated priors on clean labels: the estimate of beta alone (0.9 or
// so on this sample) is no evidence of noise while the region of priors
// reaches 1.
func TestBoundsNoiseWarningOnlyWhenCredible(t *testing.T) {
	scores, labeled, _ := puScores(t, 41, 2, 0.3, 1, 1000, 4000)
	w := warningsOf(t, scores, labeled, Options{Bootstrap: 20, BoundsResamples: 20})
	if msg, ok := w[WarnBoundsNoisy]; ok {
		t.Errorf("clean labels, estimated priors: %s", msg)
	}
	w = warningsOf(t, scores, labeled, Options{Bootstrap: 20, BoundsResamples: 20, Priors: &GivenPriors{0.3, 0.9}})
	if msg := w[WarnBoundsNoisy]; !strings.Contains(msg, "given as 0.900") {
		t.Errorf("given beta 0.9: warning %q, want it stated as given", msg)
	}
}

// Held-out scores cannot reach a PU AUC of InSampleAUCPU unless U holds
// almost no positives (the bound alpha/2 + (1 - alpha) AUC); scores that
// favour the labeled rows whatever their class, as a model trained on
// these labels gives, do, and are flagged.
func TestInSampleScoresWarn(t *testing.T) {
	scores, labeled, _ := puScores(t, 42, 3, 0.3, 1, 1000, 4000)
	if msg, ok := warningsOf(t, scores, labeled, Options{BoundsResamples: -1})[WarnInSample]; ok {
		t.Errorf("held-out scores, alpha 0.3, AUC 0.98: %s", msg)
	}
	inSample := make([]float64, len(scores))
	for i, s := range scores {
		inSample[i] = s
		if labeled[i] {
			inSample[i] += 4 // memorised: every labeled row scores high
		}
	}
	if _, ok := warningsOf(t, inSample, labeled, Options{BoundsResamples: -1})[WarnInSample]; !ok {
		t.Error("in-sample scores: no warning")
	}
}

// A recovery under an alpha far above the truth lifts the recovered curve
// to 1, where it is cut: the headline numbers clipped there are named
// (recovered values at alpha 0.8 for a true 0.4, from a run of these
// scores: AUC 1, accuracy, F1 and MCC 1).
func TestClippedNumbersWarn(t *testing.T) {
	scores, labeled, _ := puScores(t, 43, 3, 0.4, 1, 1000, 4000)
	w := warningsOf(t, scores, labeled, Options{Bootstrap: 20, BoundsResamples: -1, Priors: &GivenPriors{0.4, 1}})
	if msg, ok := w[WarnClipped]; ok {
		t.Errorf("true priors: %s", msg)
	}
	w = warningsOf(t, scores, labeled, Options{Bootstrap: 20, BoundsResamples: -1, Priors: &GivenPriors{0.8, 1}})
	if msg := w[WarnClipped]; !strings.Contains(msg, "AUC (1.000)") || !strings.Contains(msg, "MCC (1.000)") {
		t.Errorf("alpha 0.8 for a true 0.4: warning %q, want the AUC named at 1", msg)
	}
}

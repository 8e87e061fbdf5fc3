package recovery

import (
	"testing"

	"github.com/pueval/pueval/metrics"
)

// BenchmarkCell is what the runner does per cell of the AAAI-2017
// reproduction: rank 1,000 labeled and 10,000 unlabeled scores once, then
// recover everything, both Algorithm 1 modes.
func BenchmarkCell(b *testing.B) {
	scores, lab := cellScores(b)
	b.ReportAllocs()
	for b.Loop() {
		r, err := metrics.Rank(scores, lab)
		if err != nil {
			b.Fatal(err)
		}
		rc, err := New(r, 0.3, 0.9)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range Outsides {
			if _, err := rc.Summary(o); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkAreas is what the auc and aucpr measures of the AAAI-2017 config
// ask of one recovery (papers/aaai2017/aaai2017.yaml: both Outside modes, the AUC
// and the four PR readings): 1,000 labeled and 10,000 unlabeled scores,
// ranked before the timer starts.
func BenchmarkAreas(b *testing.B) {
	scores, lab := cellScores(b)
	r, err := metrics.Rank(scores, lab)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		rc, err := New(r, 0.3, 0.9)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range Outsides {
			rc.IndirectAUC(o)
			for _, c := range [...]PRCurve{PRFromROC, PREq3} {
				for _, a := range [...]PRArea{AreaTrapezoid, AreaStep} {
					rc.AUCPR(o, c, a)
				}
			}
		}
	}
}

// cellScores are the PU scores of an AAAI-2017 cell: 1,000 labeled and
// 10,000 unlabeled (alpha 0.3, beta 0.9), label true for the labeled.
func cellScores(b *testing.B) ([]float64, []bool) {
	d := newDraw(b, 1, 0.3, 0.9, 1000, 10000)
	scores := append(append([]float64{}, d.s.Labeled...), d.s.Unlabeled...)
	lab := make([]bool, len(scores))
	for i := range d.s.Labeled {
		lab[i] = true
	}
	return scores, lab
}

// BenchmarkPrepareROC1e6 is Algorithm 1's curve on 10^6 thresholds: 10^5
// labeled and 9 x 10^5 unlabeled scores (alpha 0.3, beta 0.9), both
// Outside modes (the sort is nearly all of it).
func BenchmarkPrepareROC1e6(b *testing.B) {
	d := newDraw(b, 2, 0.3, 0.9, 100_000, 900_000)
	b.ResetTimer()
	for b.Loop() {
		rc, err := New(d.pu, 0.32, 0.88)
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range Outsides {
			if err := rc.PrepareROC(b.Context(), o); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkWorkspace1e6 is what a bootstrap resample of that sample asks:
// its numbers from a tally of the 10^6 thresholds, the workspace reused,
// under one Outside mode.
func BenchmarkWorkspace1e6(b *testing.B) {
	d := newDraw(b, 2, 0.3, 0.9, 100_000, 900_000)
	t, err := TallyOf(d.pu)
	if err != nil {
		b.Fatal(err)
	}
	var w Workspace
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := w.Recover(b.Context(), t, 0.32, 0.88, Drop); err != nil {
			b.Fatal(err)
		}
	}
}

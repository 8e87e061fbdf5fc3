package recovery

import (
	"testing"

	"github.com/pueval/pueval/metrics"
)

// BenchmarkCell is what the runner does per cell of the AAAI-2017
// reproduction: rank 1,000 labeled and 10,000 unlabeled scores once, then
// recover everything, both Algorithm 1 modes.
func BenchmarkCell(b *testing.B) {
	d := newDraw(b, 1, 0.3, 0.9, 1000, 10000)
	scores := append(append([]float64{}, d.s.Labeled...), d.s.Unlabeled...)
	lab := make([]bool, len(scores))
	for i := range d.s.Labeled {
		lab[i] = true
	}
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

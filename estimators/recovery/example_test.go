package recovery_test

import (
	"fmt"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/metrics"
)

// The AAAI-2017 Figure 1 data: three labeled examples (all positive, beta =
// 1) and five unlabeled ones, one of them positive (alpha = 1/5).
func Example() {
	scores := []float64{0.986, 0.863, 0.699, 0.943, 0.789, 0.473, 0.211, 0.009}
	labeled := []bool{true, true, true, false, false, false, false, false}
	r, err := metrics.Rank(scores, labeled)
	if err != nil {
		panic(err)
	}
	rc, err := recovery.New(r, 0.2, 1)
	if err != nil {
		panic(err)
	}
	s, err := rc.Summary(recovery.Drop)
	if err != nil {
		panic(err)
	}
	fmt.Printf("AUC: PU %.4f, direct %.4f, indirect %.4f\n", s.AUC.PU, s.AUC.Direct, s.AUC.Indirect)
	fmt.Printf("AUC-PR: PU %.4f, indirect %.4f\n", s.AUCPR.PU, s.AUCPR.Indirect)
	for _, m := range recovery.Measures {
		o := s.Optima(m)
		fmt.Printf("max %-4v PU %.4f at >= %v, recovered %.4f at >= %v\n", m, o.PU.Value, o.PU.Threshold, o.Recovered.Value, o.Recovered.Threshold)
	}
	// Output:
	// AUC: PU 0.8000, direct 0.8750, indirect 0.9028
	// AUC-PR: PU 0.7556, indirect 0.6111
	// max acc  PU 0.7500 at >= 0.986, recovered 0.8750 at >= 0.699
	// max bacc PU 0.8000 at >= 0.699, recovered 0.8750 at >= 0.699
	// max f1   PU 0.7500 at >= 0.699, recovered 0.8889 at >= 0.699
	// max mcc  PU 0.6000 at >= 0.699, recovered 0.7746 at >= 0.699
}

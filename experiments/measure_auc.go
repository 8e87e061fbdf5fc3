package experiments

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
)

// AreaMeasure is the options of the measures "auc" (area under the ROC
// curve) and "aucpr" (average precision), recovered on the unlabeled set U
// as AAAI-2017 does. Keys of Record.Metrics[auc or aucpr]:
//
//	pu                              L vs U, uncorrected
//	truth:ID                        each truth, on U unless its on: says otherwise
//	direct:SOURCE                   auc only: Eq. 4, clipped to [0, 1]
//	indirect:SOURCE                 Algorithm 1 with outside = drop (aucpr: precision from Eq. 3)
//	indirect-clip:SOURCE            Algorithm 1 with outside = clip
//
// for SOURCE = real (the split's alpha, beta) and each estimator's ID.
//
//	metrics: [{name: auc, outside: [drop, clip]}]   # outside: Algorithm 1's modes (default both)
type AreaMeasure struct {
	Outside []string `yaml:"outside"`
	metric  string
}

func (m *AreaMeasure) Name() string { return m.metric }

func (m *AreaMeasure) Validate() error {
	var errs []error
	if len(m.Outside) == 0 {
		errs = append(errs, fmt.Errorf("outside: list at least one of drop, clip"))
	}
	for i, o := range m.Outside {
		if _, err := recovery.ParseOutside(o); err != nil {
			errs = append(errs, fmt.Errorf("outside[%d] = %q: want drop or clip", i, o))
		} else if slices.Index(m.Outside, o) != i {
			errs = append(errs, fmt.Errorf("outside: %q listed twice", o))
		}
	}
	return joinErrs("measure "+m.metric, errs)
}

func (m *AreaMeasure) Key() string {
	return fmt.Sprintf("%s/v1 outside=%s", m.metric, strings.Join(m.Outside, ","))
}

func (m *AreaMeasure) New() (Measure, error) { return m, m.Validate() }

// UsesRecovery is true: every value but pu and the truths is a recovery.
func (m *AreaMeasure) UsesRecovery() bool { return true }

// indirectKind is the key kind of Algorithm 1 in an outside mode: indirect
// for drop (the paper's), indirect-clip for clip.
func indirectKind(o recovery.Outside) string {
	if o == recovery.Clip {
		return results.IndirectClip
	}
	return results.Indirect
}

func (m *AreaMeasure) Measure(_ context.Context, c *CellRun, out *Values) error {
	recs, err := c.Recoveries()
	if err != nil {
		return err
	}
	truths := c.TruthRankings(SetUnlabeled)
	pu, err := c.PU()
	if err != nil {
		return err
	}
	var outsides []recovery.Outside
	for _, s := range m.Outside {
		o, _ := recovery.ParseOutside(s) // validated
		outsides = append(outsides, o)
	}
	auc := m.metric == "auc"
	if auc {
		out.Set(m.metric, results.PU, pu.AUC())
	} else {
		out.Set(m.metric, results.PU, pu.AveragePrecision())
	}
	for _, t := range truths {
		if auc {
			out.Set(m.metric, results.TruthKey(t.ID), t.AUC())
		} else {
			out.Set(m.metric, results.TruthKey(t.ID), t.AveragePrecision())
		}
	}
	for _, r := range recs {
		if auc {
			out.Set(m.metric, results.RecoveryKey(results.Direct, r.Source), r.DirectAUC())
		}
		for _, o := range outsides {
			v := r.IndirectAUCPR(o)
			if auc {
				v = r.IndirectAUC(o)
			}
			out.Set(m.metric, results.RecoveryKey(indirectKind(o), r.Source), v)
		}
	}
	return nil
}

// Compile-time checks.
var (
	_ MeasureConfig = (*AreaMeasure)(nil)
	_ Measure       = (*AreaMeasure)(nil)
	_ RecoveryUser  = (*AreaMeasure)(nil)
)

func init() {
	for _, metric := range []string{"auc", "aucpr"} {
		doc := map[string]string{
			"auc":   "AUC on U: PU, truths, direct (Eq. 4) and indirect (Algorithm 1) recovery with the true and each estimated (alpha, beta)",
			"aucpr": "AUC-PR (average precision) on U: PU, truths, indirect recovery (Eq. 3) with the true and each estimated (alpha, beta)",
		}[metric]
		Measures.Register(metric, doc, func() MeasureConfig {
			return &AreaMeasure{Outside: []string{"drop", "clip"}, metric: metric}
		})
	}
}

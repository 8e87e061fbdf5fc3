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
//	indirect:SOURCE                 Algorithm 1 with outside = drop
//	indirect-clip:SOURCE            Algorithm 1 with outside = clip
//	KIND+PRECISION-AREA:SOURCE      aucpr only: the variants after the first (below)
//
// for SOURCE = real (the split's alpha, beta) and each estimator's ID.
//
//	metrics: [{name: auc, outside: [drop, clip]}]   # outside: Algorithm 1's modes (default both)
//	metrics: [{name: aucpr, precision: [eq3, roc], area: [step, trapezoid]}]
//
// aucpr's precision lists where the recovered PR curve comes from
// (recovery.PRCurve: eq3, precision alpha gamma / eta_pu at each threshold
// as the paper's Eq. 3 reads; roc, the precision of Algorithm 1's recovered
// ROC curve), area how its area is summed (recovery.PRArea: step, average
// precision like the truth's; trapezoid); the first of each gives the keys
// indirect and indirect-clip, every other combination is kept under
// KIND+PRECISION-AREA (e.g. indirect+eq3-step:real) for ablations on
// cached scores.
type AreaMeasure struct {
	Outside   []string `yaml:"outside"`
	Precision []string `yaml:"precision"`
	Area      []string `yaml:"area"`
	metric    string
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
	if m.metric == "auc" {
		if len(m.Precision) > 0 || len(m.Area) > 0 {
			errs = append(errs, fmt.Errorf("precision and area are options of aucpr, not auc"))
		}
		return JoinErrors("measure "+m.metric, errs)
	}
	if len(m.Precision) == 0 || len(m.Area) == 0 {
		errs = append(errs, fmt.Errorf("precision and area: list at least one of eq3, roc and of step, trapezoid"))
	}
	for i, s := range m.Precision {
		if _, err := recovery.ParsePRCurve(s); err != nil {
			errs = append(errs, fmt.Errorf("precision[%d]: %w", i, err))
		} else if slices.Index(m.Precision, s) != i {
			errs = append(errs, fmt.Errorf("precision: %q listed twice", s))
		}
	}
	for i, s := range m.Area {
		if _, err := recovery.ParsePRArea(s); err != nil {
			errs = append(errs, fmt.Errorf("area[%d]: %w", i, err))
		} else if slices.Index(m.Area, s) != i {
			errs = append(errs, fmt.Errorf("area: %q listed twice", s))
		}
	}
	return JoinErrors("measure "+m.metric, errs)
}

// Key names the options. The PR options appear only when they are not
// aucpr's defaults (eq3, step; none for auc), so that the keys of configs
// written before they existed, and the results directories keyed by them,
// stay valid.
func (m *AreaMeasure) Key() string {
	key := fmt.Sprintf("%s/v1 outside=%s", m.metric, strings.Join(m.Outside, ","))
	p, a := strings.Join(m.Precision, ","), strings.Join(m.Area, ",")
	if (p != "" || a != "") && (p != "eq3" || a != "step") {
		key += " precision=" + p + " area=" + a
	}
	return key
}

// prVariant is one (precision curve, area rule) of aucpr and its key suffix:
// "" for the first, "+eq3-step" and so on for the others.
type prVariant struct {
	curve  recovery.PRCurve
	area   recovery.PRArea
	suffix string
}

func (m *AreaMeasure) prVariants() []prVariant {
	var out []prVariant
	for _, p := range m.Precision {
		c, _ := recovery.ParsePRCurve(p) // validated
		for _, s := range m.Area {
			a, _ := recovery.ParsePRArea(s)
			suffix := ""
			if len(out) > 0 {
				suffix = "+" + p + "-" + s
			}
			out = append(out, prVariant{c, a, suffix})
		}
	}
	return out
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
	variants := m.prVariants()
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
			if auc {
				out.Set(m.metric, results.RecoveryKey(indirectKind(o), r.Source), r.IndirectAUC(o))
				continue
			}
			for _, v := range variants {
				out.Set(m.metric, results.RecoveryKey(indirectKind(o)+v.suffix, r.Source), r.AUCPR(o, v.curve, v.area))
			}
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
			if metric == "auc" {
				return &AreaMeasure{Outside: []string{"drop", "clip"}, metric: metric}
			}
			// The precision of the recovered ROC curve with the trapezoid
			// rule reproduces the paper's Table 2 IR column (docs/aucpr.md:
			// mean .062 against .064, per row within .007 on average; Eq. 3
			// at each threshold with average precision: .085, .018).
			return &AreaMeasure{Outside: []string{"drop", "clip"}, Precision: []string{recovery.DefaultPRCurve.String()},
				Area: []string{recovery.DefaultPRArea.String()}, metric: metric}
		})
	}
}

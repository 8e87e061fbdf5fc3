package experiments

import (
	"fmt"
	"slices"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/metrics"
)

// measurement computes a cell's metrics from its out-of-bag scores.
type measurement struct {
	cfg         *Config
	scores      []float64 // L then U
	nL          int
	truth       []bool    // true labels of L then U
	trad        []float64 // traditional-truth scores of U (AAAI-2017), or nil
	alpha, beta float64   // true values of the split
	est         *results.Estimate
	warnings    []string
}

func (m *measurement) warn(format string, args ...any) {
	m.warnings = append(m.warnings, fmt.Sprintf(format, args...))
}

// set stores a value, leaving out (with a warning) one that is not finite.
func (m *measurement) set(out map[string]map[string]float64, metric, key string, v float64) {
	if !finite(v) {
		m.warn("%s/%s is %v: left out", metric, key, v)
		return
	}
	if out[metric] == nil {
		out[metric] = map[string]float64{}
	}
	out[metric][key] = v
}

func (m *measurement) compute() (map[string]map[string]float64, error) {
	pseudo := make([]bool, len(m.scores))
	for i := range m.nL {
		pseudo[i] = true
	}
	pu, err := metrics.Rank(m.scores, pseudo)
	if err != nil {
		return nil, fmt.Errorf("PU ranking: %w", err)
	}
	withTrue, err := recovery.New(pu, m.alpha, m.beta)
	if err != nil {
		return nil, fmt.Errorf("recovery with the true alpha %v, beta %v: %w", m.alpha, m.beta, err)
	}
	var estd *recovery.Recovery
	if m.est != nil {
		if estd, err = recovery.New(pu, m.est.Alpha, m.est.Beta); err != nil {
			m.warn("recovery with the estimated alpha %v, beta %v: %v: the E estimates are missing", m.est.Alpha, m.est.Beta, err)
			estd = nil
		}
	}
	out := map[string]map[string]float64{}
	if m.cfg.Protocol.Name == ProtocolAAAI2017 {
		return out, m.aaai(out, pu, withTrue, estd)
	}
	return out, m.psb(out, withTrue, estd)
}

// aaai fills auc and aucpr on the unlabeled set (AAAI-2017).
func (m *measurement) aaai(out map[string]map[string]float64, pu *metrics.Ranking, withTrue, estd *recovery.Recovery) error {
	var sameModel, trad *metrics.Ranking
	if slices.Contains(m.cfg.Truth, TruthSameModel) {
		r, err := metrics.Rank(m.scores[m.nL:], m.truth[m.nL:])
		if err != nil {
			m.warn("same-model truth on the unlabeled set: %v", err)
		} else {
			sameModel = r
		}
	}
	if m.trad != nil {
		r, err := metrics.Rank(m.trad, m.truth[m.nL:])
		if err != nil {
			m.warn("traditional truth on the unlabeled set: %v", err)
		} else {
			trad = r
		}
	}
	outsides := m.outsides()
	for _, metric := range m.cfg.Metrics {
		switch metric {
		case results.MetricAUC:
			m.set(out, metric, results.PU, pu.AUC())
			if trad != nil {
				m.set(out, metric, results.Truth, trad.AUC())
			}
			if sameModel != nil {
				m.set(out, metric, results.TruthSameModel, sameModel.AUC())
			}
			for _, rc := range []struct {
				r        *recovery.Recovery
				ind, dir string
			}{{withTrue, results.IR, results.DR}, {estd, results.IE, results.DE}} {
				if rc.r == nil {
					continue
				}
				m.set(out, metric, rc.dir, rc.r.DirectAUC())
				for _, o := range outsides {
					m.set(out, metric, rc.ind+suffix(o), rc.r.IndirectAUC(o))
				}
			}
		case results.MetricAUCPR:
			m.set(out, metric, results.PU, pu.AveragePrecision())
			if trad != nil {
				m.set(out, metric, results.Truth, trad.AveragePrecision())
			}
			if sameModel != nil {
				m.set(out, metric, results.TruthSameModel, sameModel.AveragePrecision())
			}
			for _, rc := range []struct {
				r   *recovery.Recovery
				ind string
			}{{withTrue, results.IR}, {estd, results.IE}} {
				if rc.r == nil {
					continue
				}
				for _, o := range outsides {
					m.set(out, metric, rc.ind+suffix(o), rc.r.IndirectAUCPR(o))
				}
			}
		}
	}
	return nil
}

// psb fills acc, bacc, f1, mcc on D = L u U (PSB-2019): for each of PU, CR,
// CE the maximum over thresholds and the true metric at that threshold, and
// the true maximum.
func (m *measurement) psb(out map[string]map[string]float64, withTrue, estd *recovery.Recovery) error {
	truthD, err := metrics.Rank(m.scores, m.truth)
	if err != nil {
		return fmt.Errorf("truth on labeled + unlabeled: %w", err)
	}
	for _, name := range m.cfg.Metrics {
		meas, ok := measureByName(name)
		if !ok {
			continue
		}
		tm := meas.Metric()
		m.set(out, name, results.Truth, truthD.Max(tm).Value)
		at := func(key string, o metrics.Optimum) {
			m.set(out, name, key, o.Value)
			m.set(out, name, key+results.TruthAtSuffix, tm(truthD.ConfusionAt(o.Threshold)))
		}
		at(results.PU, withTrue.PUMax(meas))
		at(results.CR, withTrue.Max(meas))
		if estd != nil {
			at(results.CE, estd.Max(meas))
		}
	}
	return nil
}

func measureByName(name string) (recovery.Measure, bool) {
	for _, m := range recovery.Measures {
		if m.String() == name {
			return m, true
		}
	}
	return 0, false
}

// outsides returns the configured Algorithm 1 modes, drop (the paper's) first.
func (m *measurement) outsides() []recovery.Outside {
	var os []recovery.Outside
	for _, s := range m.cfg.Outside {
		if o, err := recovery.ParseOutside(s); err == nil {
			os = append(os, o)
		}
	}
	return os
}

// suffix is the record-key suffix of an Algorithm 1 mode: none for drop (the paper's), "_clip" for clip.
func suffix(o recovery.Outside) string {
	if o == recovery.Clip {
		return results.ClipSuffix
	}
	return ""
}

package recovery

import (
	"errors"
	"fmt"
	"math"

	"github.com/pueval/pueval/metrics"
)

// ErrPriors is wrapped by every error about alpha and beta: a value outside
// [0, 1] or NaN, or beta - alpha <= 0, where the recovery equations divide by
// zero (beta = alpha) or describe a labeled set poorer in positives than the
// unlabeled one (beta < alpha), which the theory excludes.
var ErrPriors = errors.New("recovery needs 0 <= alpha < beta <= 1")

// CheckPriors returns an error wrapping [ErrPriors] unless alpha and beta are
// proportions in [0, 1] with beta - alpha > 0. Every function of the package
// that divides by beta - alpha calls it first.
func CheckPriors(alpha, beta float64) error {
	if !(alpha >= 0 && alpha <= 1) {
		return fmt.Errorf("recovery: alpha = %v is not a proportion in [0, 1]: %w", alpha, ErrPriors)
	}
	if !(beta >= 0 && beta <= 1) {
		return fmt.Errorf("recovery: beta = %v is not a proportion in [0, 1]: %w", beta, ErrPriors)
	}
	if !(beta-alpha > 0) {
		return fmt.Errorf("recovery: beta - alpha = %v - %v = %.6g <= 0 (the equations divide by beta - alpha): %w",
			beta, alpha, beta-alpha, ErrPriors)
	}
	return nil
}

// RecoverRates returns the true positive rate gamma (AAAI-2017 Eq. 1) and the
// false positive rate eta (Eq. 2) of a classifier from its PU rates gammaPU
// (fraction of the labeled set predicted positive) and etaPU (fraction of the
// unlabeled set predicted positive). The results are not clipped: with
// estimated inputs they may fall outside [0, 1]. It returns an error when
// beta - alpha <= 0 (see [CheckPriors]).
func RecoverRates(gammaPU, etaPU, alpha, beta float64) (gamma, eta float64, err error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, 0, err
	}
	gamma, eta = recoverRates(gammaPU, etaPU, alpha, beta)
	return gamma, eta, nil
}

// recoverRates is Eqs. 1-2 without the check, for callers that checked once.
func recoverRates(gammaPU, etaPU, alpha, beta float64) (gamma, eta float64) {
	d := beta - alpha
	return (float64((1-alpha)*gammaPU) - float64((1-beta)*etaPU)) / d, (float64(beta*etaPU) - float64(alpha*gammaPU)) / d
}

// PURates returns the PU rates that true rates gamma, eta produce: gammaPU =
// beta gamma + (1-beta) eta and etaPU = alpha gamma + (1-alpha) eta (the
// forward equations in the proof of AAAI-2017 Theorem 1, PSB-2019 Section
// 2.3). It is the inverse of [RecoverRates] and, like it, returns an error
// when beta - alpha <= 0, where that inverse does not exist.
func PURates(gamma, eta, alpha, beta float64) (gammaPU, etaPU float64, err error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, 0, err
	}
	return float64(beta*gamma) + float64((1-beta)*eta), float64(alpha*gamma) + float64((1-alpha)*eta), nil
}

// Precision returns the precision on the unlabeled set, alpha gamma / etaPU
// (AAAI-2017 Eq. 3), clipped to [0, 1]. With etaPU = 0 (no unlabeled example
// predicted positive) it is 1, the limit of the clipped ratio and the
// precision of an empty prediction in package metrics. It does not divide by
// beta - alpha (gamma was recovered before), so it has no beta and no error.
func Precision(alpha, gamma, etaPU float64) float64 {
	if etaPU <= 0 {
		return 1
	}
	return clamp(alpha*gamma/etaPU, 0, 1)
}

// DirectAUC is the direct recovery of the AUC (AAAI-2017 Eq. 4),
// (aucPU - (1 - (beta - alpha))/2) / (beta - alpha), clipped to [0, 1] as in
// the paper's experiments. aucPU is the AUC of labeled versus unlabeled. It
// returns an error when beta - alpha <= 0.
func DirectAUC(aucPU, alpha, beta float64) (float64, error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, err
	}
	return clamp(eq4(aucPU, alpha, beta), 0, 1), nil
}

// DirectAUCUnclipped evaluates AAAI-2017 Eq. 4 without clipping and for any
// beta != alpha, including beta < alpha (the lower-right triangle of the
// paper's Figures 3-4, where the recovered AUC is below 1/2). It exists to
// draw those figures; recovering a classifier's AUC uses [DirectAUC], which
// rejects beta <= alpha. It returns an error when alpha or beta is not in
// [0, 1] or beta = alpha (division by zero).
func DirectAUCUnclipped(aucPU, alpha, beta float64) (float64, error) {
	if !(alpha >= 0 && alpha <= 1 && beta >= 0 && beta <= 1) || alpha == beta {
		return 0, fmt.Errorf("recovery: Eq. 4 needs alpha, beta in [0, 1] and beta != alpha, got alpha %v, beta %v: %w",
			alpha, beta, ErrPriors)
	}
	return eq4(aucPU, alpha, beta), nil
}

func eq4(aucPU, alpha, beta float64) float64 {
	d := beta - alpha
	return (aucPU - float64((1-d)/2)) / d
}

// PUAUC is Eq. 4 solved for the PU AUC, AUC_pu = (1 - (beta - alpha))/2 +
// (beta - alpha) AUC (the last line of the proof of AAAI-2017 Theorem 1): the
// AUC of labeled versus unlabeled that a classifier with true AUC auc shows. It
// returns an error when beta - alpha <= 0.
func PUAUC(auc, alpha, beta float64) (float64, error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, err
	}
	d := beta - alpha
	return float64((1-d)/2) + float64(d*auc), nil
}

// Pi is the proportion of positives in D = L u U, c beta + (1-c) alpha
// (PSB-2019 Eq. 11), with c = |L| / (|L| + |U|). It returns an error unless
// c, alpha and beta are proportions with beta - alpha > 0.
func Pi(c, alpha, beta float64) (float64, error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, err
	}
	if !(c >= 0 && c <= 1) {
		return 0, fmt.Errorf("recovery: c = %v is not a proportion in [0, 1]", c)
	}
	return float64(c*beta) + float64((1-c)*alpha), nil
}

// DirectBalancedAccuracy recovers the balanced accuracy from its PU value
// (PSB-2019 Theorem 2.1): (2 baccPU - 1) / (2 (beta - alpha)) + 1/2. Not
// clipped. It returns an error when beta - alpha <= 0.
func DirectBalancedAccuracy(baccPU, alpha, beta float64) (float64, error) {
	if err := CheckPriors(alpha, beta); err != nil {
		return 0, err
	}
	return (2*baccPU-1)/(2*(beta-alpha)) + 0.5, nil
}

// DirectMCC recovers Matthews' correlation from its PU value (PSB-2019
// Theorem 2.1): sqrt(pi (1-pi) / (c (1-c))) mccPU / (beta - alpha), with pi =
// c beta + (1-c) alpha. Not clipped. With c in {0, 1} (no labeled or no
// unlabeled data) mccPU is 0 by convention and so is the result. It returns an
// error when beta - alpha <= 0 or c is not in [0, 1].
func DirectMCC(mccPU, c, alpha, beta float64) (float64, error) {
	pi, err := Pi(c, alpha, beta)
	if err != nil {
		return 0, err
	}
	return directMCC(mccPU, c, pi, beta-alpha), nil
}

func directMCC(mccPU, c, pi, d float64) float64 {
	cc := c * (1 - c)
	if cc <= 0 {
		return 0
	}
	return math.Sqrt(pi*(1-pi)/cc) * mccPU / d
}

// Rates are the population quantities that PSB-2019 Section 2.1 writes every
// threshold metric with: the true positive rate Gamma, the false positive rate
// Eta, the proportion of positives Pi and the probability of a positive
// prediction Theta, all on the same population. With PU rates (gamma_pu,
// eta_pu, c, theta) in their place, the methods give the PU (uncorrected)
// values; with recovered rates (Eqs. 1-2, 11) the recovered values of Eqs.
// 12-15. No method clips (see [Measure.Clip]).
type Rates struct {
	Gamma, Eta, Pi, Theta float64
}

// Theta returns pi gamma + (1-pi) eta, the probability of a positive
// prediction (PSB-2019 Eq. 3).
func Theta(gamma, eta, pi float64) float64 { return float64(pi*gamma) + float64((1-pi)*eta) }

// Accuracy is pi gamma + (1-pi)(1-eta) (PSB-2019 Eq. 4; Eq. 12 with recovered rates).
func (x Rates) Accuracy() float64 { return float64(x.Pi*x.Gamma) + float64((1-x.Pi)*(1-x.Eta)) }

// BalancedAccuracy is (1 + gamma - eta)/2 (PSB-2019 Eq. 5; Eq. 13).
func (x Rates) BalancedAccuracy() float64 { return (1 + x.Gamma - x.Eta) / 2 }

// F1 is 2 pi gamma / (pi + theta) (PSB-2019 Eq. 6; Eq. 14); 0 when pi + theta = 0.
func (x Rates) F1() float64 {
	d := x.Pi + x.Theta
	if d == 0 {
		return 0
	}
	return 2 * x.Pi * x.Gamma / d
}

// MCC is sqrt(pi (1-pi) / (theta (1-theta))) (gamma - eta) (PSB-2019 Eq. 8;
// Eq. 15); 0 when theta is 0 or 1 (nothing or everything predicted positive),
// as metrics.Confusion.MCC is for an empty margin.
func (x Rates) MCC() float64 {
	d := x.Theta * (1 - x.Theta)
	if d <= 0 {
		return 0
	}
	return math.Sqrt(x.Pi*(1-x.Pi)/d) * (x.Gamma - x.Eta)
}

// Measure is one of the four threshold metrics of PSB-2019.
type Measure int

// The measures, in the order of [Measures].
const (
	Accuracy Measure = iota
	BalancedAccuracy
	F1
	MCC
)

// Measures lists every Measure in output order.
var Measures = [...]Measure{Accuracy, BalancedAccuracy, F1, MCC}

// String is the short name used in outputs: acc, bacc, f1, mcc.
func (m Measure) String() string {
	switch m {
	case Accuracy:
		return "acc"
	case BalancedAccuracy:
		return "bacc"
	case F1:
		return "f1"
	case MCC:
		return "mcc"
	}
	return fmt.Sprintf("Measure(%d)", int(m))
}

// Of evaluates the measure on population rates (PSB-2019 Eqs. 4-8, or 12-15
// for recovered rates), unclipped. An unknown Measure gives NaN.
func (m Measure) Of(x Rates) float64 {
	switch m {
	case Accuracy:
		return x.Accuracy()
	case BalancedAccuracy:
		return x.BalancedAccuracy()
	case F1:
		return x.F1()
	case MCC:
		return x.MCC()
	}
	return math.NaN()
}

// Metric is the same measure computed from a confusion matrix by package
// metrics: applied to the PU confusion matrix (labeled as positive, unlabeled
// as negative) it is the uncorrected PU estimate, applied to the matrix with
// the true labels it is the truth. An unknown Measure gives a metric that is
// always NaN.
func (m Measure) Metric() metrics.Metric {
	switch m {
	case Accuracy:
		return metrics.Confusion.Accuracy
	case BalancedAccuracy:
		return metrics.Confusion.BalancedAccuracy
	case F1:
		return metrics.Confusion.F1
	case MCC:
		return metrics.Confusion.MCC
	}
	return func(metrics.Confusion) float64 { return math.NaN() }
}

// Range is the interval PSB-2019 Figure 2 clips the recovered measure to:
// [0, 1] for acc and F1, [1/2, 1] for bacc, [-1, 1] for mcc.
func (m Measure) Range() (lo, hi float64) {
	switch m {
	case BalancedAccuracy:
		return 0.5, 1
	case MCC:
		return -1, 1
	}
	return 0, 1
}

// Clip clips v to [Measure.Range]. NaN stays NaN.
func (m Measure) Clip(v float64) float64 {
	lo, hi := m.Range()
	return clamp(v, lo, hi)
}

// clamp returns v clipped to [lo, hi]; NaN stays NaN (so that a bug shows).
func clamp(v, lo, hi float64) float64 {
	switch {
	case v < lo:
		return lo
	case v > hi:
		return hi
	}
	return v
}

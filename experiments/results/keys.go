package results

import (
	"strconv"
	"strings"
)

// Keys of Record.Metrics[metric] (schema 2), shared by the measures that
// write records and the reports that read them. A key names what a value
// is an estimate of, and from what:
//
//	pu                        the PU value: labeled read as positive, unlabeled as negative, uncorrected
//	truth:ID                  the value the truth named ID gives (a truth of the config's truths: list;
//	                          e.g. truth:traditional, truth:same-model)
//	direct:SOURCE             direct recovery (AAAI-2017 Eq. 4) with the (alpha, beta) of SOURCE
//	indirect:SOURCE           indirect recovery (AAAI-2017 Algorithm 1, outside = drop, the paper's)
//	indirect-clip:SOURCE      the same with outside = clip
//	indirect+P-A:SOURCE, indirect-clip+P-A:SOURCE
//	                          aucpr only: the same under another reading of the recovered PR curve than
//	                          the config's first (precision P = eq3 or roc, area A = step or trapezoid)
//	recovered:SOURCE          a threshold measure's maximum over thresholds of the recovered curve (PSB-2019)
//	true                      the evaluated scores judged with the true labels (no truth model; PULP
//	                          paper's "fully labelled" value)
//	KEY@F                     KEY on the held-out fold F (1..k) of a protocol's cross-validation
//	                          (e.g. pu@3, true@3); KEY alone is then the mean over the folds
//	truth-at:pu, truth-at:SOURCE
//	                          the true value of a threshold measure (the evaluated scores judged with the
//	                          true labels) at the threshold where pu or recovered:SOURCE is largest
//	sd:pu                     aul only: the standard deviation of pu over the splits that would label as
//	                          many positives uniformly at random, the cell's scores and true labels held
//	                          fixed (the AUL paper's Theorem 1; written when every labeled row is positive)
//
// SOURCE is "real" (the split's true alpha and beta, the papers' R) or the
// ID of an estimator of the config's estimators: list (the papers' E; by
// default the estimator's name, e.g. alphamax-n), whose estimate is
// Record.Estimates[ID].
const (
	PU         = "pu"
	Real       = "real"
	TrueLabels = "true"

	// Kinds: the part of a key before the colon.
	Truth        = "truth"
	TruthAt      = "truth-at"
	Direct       = "direct"
	Indirect     = "indirect"
	IndirectClip = "indirect-clip"
	Recovered    = "recovered"
	SD           = "sd"
)

// TruthKey is the key of the truth named id: "truth:" + id.
func TruthKey(id string) string { return Truth + ":" + id }

// TruthAtKey is the key of the true value at the arg-max threshold of
// source ("pu", "real" or an estimator ID): "truth-at:" + source.
func TruthAtKey(source string) string { return TruthAt + ":" + source }

// RecoveryKey is the key of a recovery kind (Direct, Indirect,
// IndirectClip, Recovered, ...) with the (alpha, beta) of source ("real"
// or an estimator ID): kind + ":" + source.
func RecoveryKey(kind, source string) string { return kind + ":" + source }

// SDKey is the key of the standard deviation over splits of the value
// under key (only "pu" so far): "sd:" + key.
func SDKey(key string) string { return SD + ":" + key }

// SplitKey splits a key into its kind and its source or truth ID:
// "indirect:real" -> ("indirect", "real"); "pu" -> ("pu", "").
func SplitKey(key string) (kind, id string) {
	kind, id, _ = strings.Cut(key, ":")
	return kind, id
}

// FoldKey is the key of key's value on the held-out fold f (1-based):
// key + "@" + f.
func FoldKey(key string, f int) string { return key + "@" + strconv.Itoa(f) }

// PUMeasures are the metric names the measure pu-measures writes (the PULP
// paper's eight measures, metrics.PUMeasures) and report pulp reads, in the
// paper's column order (Table 1: AUC, F1, L&L, MI, PEAR, MAP, PULP,
// PseudoF).
var PUMeasures = []string{"auc", "f1", "ll", "mi", "pearson", "map", "pulp", "pseudo-f"}

package evaluate

// Schema names the version of the JSON form of [Result]; it changes when a
// field changes meaning or goes away (new fields do not change it).
const Schema = "pueval.evaluate/2"

// Result is the evaluation of one model on one PU sample. It JSON-encodes to
// the schema documented in the package documentation and docs/evaluate.md
// ("Evaluating your own model").
type Result struct {
	Schema     string `json:"schema"`
	NLabeled   int    `json:"n_labeled"`
	NUnlabeled int    `json:"n_unlabeled"`
	// C is |L| / (|L| + |U|).
	C Float `json:"c"`
	// Pi is the fraction of positives in D = L u U under the priors used,
	// c beta + (1 - c) alpha (PSB-2019 Eq. 11); null without valid priors.
	Pi Float `json:"pi"`
	// Outside is how the recovered ROC curve treats points outside the unit
	// square: "drop" (AAAI-2017 Algorithm 1) or "clip".
	Outside string `json:"outside"`
	Scores  Scores `json:"scores"`
	// Priors are the alpha and beta every recovered number uses: given, or
	// the estimators' consensus (the mean of the score-reading ones').
	Priors Priors `json:"priors"`
	// Estimators are every estimator run, in order, each with the numbers
	// recovered under its own alpha and beta.
	Estimators []EstimatorResult `json:"estimators"`
	// Agreement summarises the spread of the estimators that succeeded.
	Agreement *Agreement `json:"agreement,omitempty"`
	Metrics   Metrics    `json:"metrics"`
	// Bounds are Claesen et al.'s ROC and PR bounds over the estimators'
	// range of alpha (Claesen's beta); absent when they cannot be computed.
	Bounds    *Bounds    `json:"bounds,omitempty"`
	Bootstrap *Bootstrap `json:"bootstrap,omitempty"`
	// Truth holds the numbers computed with the true labels, when the input
	// had them (benchmark data only).
	Truth  *Truth `json:"truth,omitempty"`
	Curves Curves `json:"curves"`
	// Warnings are conditions that make some numbers unreliable, each with a
	// stable code.
	Warnings []Warning `json:"warnings"`
	// Assumptions say what each number needs to hold.
	Assumptions []Assumption `json:"assumptions"`
}

// Scores says where the scores came from.
type Scores struct {
	// Source is "given" (held-out scores read from the input) or "trained"
	// (the classifier below, trained labeled against unlabeled).
	Source string `json:"source"`
	// Classifier, Key, Seed and HeldOut describe the trained classifier:
	// its registry name, the canonical string of its options, the seed, and
	// how every score is held out ("out-of-fold, 5 folds", "out-of-bag, 100
	// nets").
	Classifier string `json:"classifier,omitempty"`
	Key        string `json:"key,omitempty"`
	Seed       uint64 `json:"seed,omitempty"`
	HeldOut    string `json:"held_out,omitempty"`
	// Seconds is the training time (not in the JSON, which is a function
	// of the input, the options and the seed alone).
	Seconds float64 `json:"-"`
	// Distinct is the number of distinct score values.
	Distinct int `json:"distinct"`
	// Values are the scores, in the input's row order (not in the JSON).
	Values []float64 `json:"-"`
}

// Priors are alpha (the fraction of positives among the unlabeled) and beta
// (among the labeled).
type Priors struct {
	// Source is "given" or "estimated".
	Source string `json:"source"`
	// Method is the estimator, or "mean of ..." the estimators whose
	// alpha and beta were averaged, when estimated.
	Method string `json:"method,omitempty"`
	Alpha  Float  `json:"alpha"`
	Beta   Float  `json:"beta"`
	// Valid is false when the recovery cannot use them (beta <= alpha, or
	// the estimator failed): every recovered number is then null.
	Valid bool `json:"valid"`
	// AlphaInterval and BetaInterval are the ranges of alpha and beta the
	// intervals of the recovered numbers cover (estimated priors only):
	// Region's.
	AlphaInterval *Interval `json:"alpha_interval,omitempty"`
	BetaInterval  *Interval `json:"beta_interval,omitempty"`
	// Region is the region of priors around the estimate that the
	// intervals cover (estimated priors only). Its size, calibrated on the
	// practitioner's benchmark, grows as 1/sqrt(labeled rows) and as the
	// recovered AUC falls below 0.9 (see the package doc).
	Region *PriorRegion `json:"region,omitempty"`
}

// PriorRegion is a region of priors: alpha, beta - alpha (Gap) and the beta
// they give.
type PriorRegion struct {
	Alpha Interval `json:"alpha"`
	Gap   Interval `json:"beta_minus_alpha"`
	Beta  Interval `json:"beta"`
}

// Interval is a confidence interval [Low, High].
type Interval struct {
	Low  Float `json:"low"`
	High Float `json:"high"`
}

// Range is the smallest and largest of some values.
type Range struct {
	Min Float `json:"min"`
	Max Float `json:"max"`
}

// EstimatorResult is one class-prior estimator's estimate and the numbers
// recovered under it.
type EstimatorResult struct {
	Method string `json:"method"`
	// Reads is "scores" or "features".
	Reads string `json:"reads"`
	// CleanLabels is true for estimators that assume beta = 1 (they
	// estimate alpha only).
	CleanLabels    bool  `json:"clean_labels"`
	Alpha          Float `json:"alpha"`
	Beta           Float `json:"beta"`
	BetaMinusAlpha Float `json:"beta_minus_alpha"`
	// Rows is how many rows the estimator read: fewer than the input's
	// when it was subsampled (KM's kernel matrix is dense).
	Rows       int  `json:"rows"`
	Subsampled bool `json:"subsampled,omitempty"`
	// Seconds is the estimator's time (not in the JSON, see Scores.Seconds).
	Seconds  float64  `json:"-"`
	Warnings []string `json:"warnings"`
	// Error says why the estimator gave no estimate.
	Error string `json:"error,omitempty"`
	// MaxRows is, when a feature-reading estimator refused its rows because
	// their n x n matrices do not fit in the memory available, the most
	// rows that fit (set KMMaxRows at most that); absent otherwise.
	MaxRows *int `json:"max_rows,omitempty"`
	// Recovered are the headline numbers under this estimator's alpha and
	// beta; absent when they cannot be used (an error, beta <= alpha).
	Recovered *Headline `json:"recovered,omitempty"`
}

// Headline is the recovered AUC, AUC-PR and best threshold measures under
// one pair of priors.
type Headline struct {
	AUC   Float `json:"auc"`
	AUCPR Float `json:"aucpr"`
	Acc   Float `json:"acc"`
	BAcc  Float `json:"bacc"`
	F1    Float `json:"f1"`
	MCC   Float `json:"mcc"`
}

// Agreement is the spread of the estimators that gave an estimate.
type Agreement struct {
	Estimators     int   `json:"estimators"`
	Alpha          Range `json:"alpha"`
	Beta           Range `json:"beta"`
	BetaMinusAlpha Range `json:"beta_minus_alpha"`
	// AUC and F1 are the spread of the recovered AUC and best F1 over the
	// estimators whose priors are usable.
	AUC Range `json:"auc"`
	F1  Range `json:"f1"`
}

// Metrics are the PU and recovered numbers under Result.Priors.
type Metrics struct {
	AUC   Metric `json:"auc"`
	AUCPR Metric `json:"aucpr"`
	Acc   Metric `json:"acc"`
	BAcc  Metric `json:"bacc"`
	F1    Metric `json:"f1"`
	MCC   Metric `json:"mcc"`
}

// Metric is one number, PU and recovered.
type Metric struct {
	// Set is the set whose true labels the number is about: "U" (the
	// unlabeled set; AUC and AUC-PR, AAAI-2017) or "D" (L u U; accuracy,
	// balanced accuracy, F1, MCC, PSB-2019).
	Set string `json:"set"`
	// PU is the uncorrected number, labeled read as positive and unlabeled
	// as negative (for the threshold measures, its best value over
	// thresholds).
	PU Float `json:"pu"`
	// Recovered is the corrected number: for AUC Algorithm 1's indirect
	// recovery, for AUC-PR the area under the recovered PR curve, for the
	// threshold measures the best recovered value over thresholds.
	Recovered Float `json:"recovered"`
	// Direct is the AUC's one-step correction (AAAI-2017 Eq. 4, clipped).
	Direct *Float `json:"direct,omitempty"`
	// Threshold is where the recovered value is best (predict positive when
	// score >= threshold), PUThreshold where the PU value is.
	Threshold   *Float `json:"threshold,omitempty"`
	PUThreshold *Float `json:"pu_threshold,omitempty"`
	// Interval is the bootstrap interval of Recovered, and DirectInterval
	// of Direct ([SamplingInterval], widened over Priors.Region when the
	// priors are estimated).
	Interval       *Interval `json:"interval,omitempty"`
	DirectInterval *Interval `json:"direct_interval,omitempty"`
	// AtThreshold is the threshold measure at the threshold the caller
	// chose (Options.Threshold), beside its best value over thresholds;
	// absent without one, and for AUC and AUC-PR.
	AtThreshold *AtThreshold `json:"at_threshold,omitempty"`
}

// AtThreshold is a threshold measure when predicting positive at score >=
// Threshold: the PU value (labeled read as positive, unlabeled as
// negative), the recovered one and its interval, which covers what the
// best value's interval covers.
type AtThreshold struct {
	Threshold Float     `json:"threshold"`
	PU        Float     `json:"pu"`
	Recovered Float     `json:"recovered"`
	Interval  *Interval `json:"interval,omitempty"`
}

// Bounds are Claesen et al.'s (2015) bounds on the ROC and PR curves of D
// = L u U, with L read as known positives.
type Bounds struct {
	// ClaesenBeta is the interval of Claesen's beta, the fraction of
	// positives among the unlabeled, which is alpha here: the estimators'
	// range of alpha, or the given alpha.
	ClaesenBeta Interval `json:"claesen_beta"`
	// Band is the confidence band on the known positives' rank CDF:
	// "bootstrap" with Resamples resamples at Level, or, past MaxBandCells,
	// "dkw" (Resamples 0).
	Band      string `json:"band"`
	Resamples int    `json:"resamples"`
	Level     Float  `json:"level"`
	// AUC and AUPR are the lower and upper bounds of the areas.
	AUC  Interval `json:"auc"`
	AUPR Interval `json:"aupr"`
}

// Bootstrap describes the bootstrap behind the intervals.
type Bootstrap struct {
	Resamples int    `json:"resamples"`
	Level     Float  `json:"level"`
	Seed      uint64 `json:"seed"`
	// Used is the number of resamples whose priors were usable; the
	// intervals are built from them. Failed = Resamples - Used.
	Used   int `json:"used"`
	Failed int `json:"failed"`
	// Method is [BootstrapMethod]. The resamples hold alpha and beta at
	// the point estimate; with estimated priors each interval is then
	// widened over Priors.Region.
	Method string `json:"method"`
	// Covers says what the intervals cover: the sampling of L and U with
	// the model (its scores) held fixed, and with estimated priors their
	// region.
	Covers string `json:"covers"`
}

// Truth holds the numbers computed with true labels (Input.Truth), each on
// the set the recovered number is about.
type Truth struct {
	Alpha Float `json:"alpha"`
	Beta  Float `json:"beta"`
	// Headline's fields, embedded: the JSON keeps them flat beside alpha
	// and beta, under the names of the recovered numbers they are the
	// truth of.
	Headline
	// AtThreshold are the true threshold measures at Options.Threshold,
	// when it is given.
	AtThreshold *TruthAtThreshold `json:"at_threshold,omitempty"`
}

// TruthAtThreshold are the threshold measures of L u U with its true
// labels when predicting positive at score >= Threshold.
type TruthAtThreshold struct {
	Threshold Float `json:"threshold"`
	Acc       Float `json:"acc"`
	BAcc      Float `json:"bacc"`
	F1        Float `json:"f1"`
	MCC       Float `json:"mcc"`
}

// Curves are the ROC and PR curves, at most Options.CurvePoints points each.
type Curves struct {
	ROC Curve `json:"roc"`
	PR  Curve `json:"pr"`
}

// Point is a point of a curve: [FPR, TPR] on a ROC curve, [recall,
// precision] on a PR curve.
type Point [2]Float

// Curve is one kind of curve: PU, recovered, the bootstrap band of the
// recovered one, and Claesen's bounds.
type Curve struct {
	// PU is labeled against unlabeled.
	PU []Point `json:"pu"`
	// Recovered is the curve on U under Result.Priors (empty without valid
	// priors).
	Recovered []Point `json:"recovered"`
	// Band is the pointwise bootstrap percentile band of the recovered
	// curve on a grid of X (FPR or recall); unlike the numbers' intervals
	// it is not scaled by SamplingInflation.
	Band *Band `json:"band,omitempty"`
	// BoundsLower and BoundsUpper are Claesen's lower and upper curves, of
	// D = L u U.
	BoundsLower []Point `json:"bounds_lower,omitempty"`
	BoundsUpper []Point `json:"bounds_upper,omitempty"`
	// Truth is the curve on U with its true labels, when Input.Truth is
	// given.
	Truth []Point `json:"truth,omitempty"`
}

// Band is a pointwise band: Lower[i] and Upper[i] at X[i].
type Band struct {
	X     []Float `json:"x"`
	Lower []Float `json:"lower"`
	Upper []Float `json:"upper"`
}

// Warning is a condition the reader should know about.
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Assumption is what a group of numbers needs to hold.
type Assumption struct {
	Numbers string `json:"numbers"`
	Needs   string `json:"needs"`
}

// Warning codes.
const (
	WarnTiedScores       = "tied-scores"           // every score equal: the model ranks nothing
	WarnAUCPU            = "auc-pu-not-above-half" // labeled not ranked above unlabeled
	WarnSmallGap         = "beta-minus-alpha-small"
	WarnInvalidPriors    = "priors-unusable" // beta <= alpha, or no estimate
	WarnEstimatorFailed  = "estimator-failed"
	WarnEstimator        = "estimator-warning" // an estimator's own warning
	WarnDisagree         = "estimators-disagree"
	WarnSubsampled       = "estimator-subsampled"
	WarnBootstrapFailed  = "bootstrap-resamples-failed"
	WarnBoundsNoisy      = "bounds-assume-clean-labels"
	WarnBoundsFailed     = "bounds-failed"
	WarnFewScores        = "few-scores"
	WarnCleanOnlyPrimary = "clean-label-estimator"
	WarnInSample         = "scores-look-in-sample" // PU AUC >= InSampleAUCPU
	WarnClipped          = "recovered-clipped"     // a headline number at the end of its range
)

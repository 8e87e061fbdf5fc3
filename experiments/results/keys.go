package results

// Names used in Record.Metrics and Record.Estimates, shared by the runner
// that writes records and the report that reads them.
//
// AAAI-2017 (metrics "auc", "aucpr"; recovered on the unlabeled set U):
//
//	truth             traditional truth: a bag trained on the whole data set with the true labels, scored out-of-bag, evaluated on U
//	truth_same_model  the PU classifier's own out-of-bag scores on U judged with the true labels
//	pu                labeled vs unlabeled, uncorrected
//	IR, DR, IE, DE    indirect / direct recovery with real (R) or estimated (E) alpha, beta; indirect uses Algorithm 1 with outside = drop
//	IR_clip, IE_clip  the same with outside = clip
//
// PSB-2019 (metrics "acc", "bacc", "f1", "mcc"; on D = L u U): for each of
// pu, CR, CE the maximum over thresholds of that estimate (key = method), and
// the true metric at that estimate's arg-max threshold (key = method + "_truth");
// "truth" is the maximum of the true metric over thresholds.
const (
	MetricAUC   = "auc"
	MetricAUCPR = "aucpr"
	MetricAcc   = "acc"
	MetricBAcc  = "bacc"
	MetricF1    = "f1"
	MetricMCC   = "mcc"

	Truth          = "truth"
	TruthSameModel = "truth_same_model"
	PU             = "pu"
	IR             = "IR"
	DR             = "DR"
	IE             = "IE"
	DE             = "DE"
	ClipSuffix     = "_clip"
	CR             = "CR"
	CE             = "CE"
	TruthAtSuffix  = "_truth"

	// EstimateUsed is the key in Record.Estimates of the (alpha, beta)
	// estimate behind the E columns; its Method names the estimator.
	EstimateUsed = "E"
)

// Package psb2019 is the report of Ramola, Jain and Radivojac, "Estimating
// classification accuracy in positive-unlabeled learning: characterization
// and correction strategies" (PSB 2019), registered with package report as
// "psb2019" (and drawn for schema-1 results directories whose records hold
// acc, bacc, f1 or mcc). Import it for its side effect to make the report
// and its analytic figure available.
//
// For each of the metrics acc, bacc, f1 and mcc (on D = L u U with the true
// labels) it reads, per record, the maximum over thresholds of PU (key pu),
// of CR (recovered:real, the real alpha and beta) and of CE (recovered:E,
// the estimates of the config's first estimator E, report.Input.Estimator),
// and the true value at each one's arg-max threshold (truth-at:pu,
// truth-at:real, truth-at:E); the error of a method is the difference, as
// the paper's Figure 2 measures it. truth:same-model, the true maximum, is
// shown beside. It draws:
//
//   - Figure 2: box plots of the errors of PU, CR and CE by nominal beta,
//     one panel per metric.
//   - A per-data-set table of the mean signed and mean absolute errors (over
//     betas and repeats), as Markdown, LaTeX and CSV.
//   - The paper's qualitative claims checked on the records: PU
//     underestimates balanced accuracy, F and MCC and overestimates
//     accuracy; CR's mean errors are near zero (|mean| < 0.02).
//   - The data sets of the paper the run could not use (Manifest.Unavailable).
//   - The analytic Figure 1 ("psb2019-fig1"): the Gaussian case study's
//     traditional and PU metrics against the threshold, from the equations
//     alone, with fig1.json holding for acc, bacc, f1, mcc the traditional
//     and pu maximum and threshold; the caption's eight values agree with the
//     equations.
//
// The paper publishes no table of numbers, so nothing is embedded.
package psb2019

// Package claesen2015 is the report of Claesen, Davis, De Smet and De Moor,
// "Assessing binary classifiers using only positive and unlabeled data"
// (arXiv 1504.06837v2, 2015), registered with package report as
// "claesen2015". Import it for its side effect to make the report and its
// analytic Figure 1 available.
//
// The paper's beta is the fraction of positives among the UNLABELED
// examples: the records' Alpha. Its bounds on the ROC and PR curves come from
// a confidence band on the rank CDF of the known positives; the measure
// "bounds" (experiments/measure_bounds.go) records them at multiples of the
// true beta, under the source names "real" (beta-hat = beta), "real*F" (F
// times beta) and "real*LO..HI" (the interval). The report reads the records
// only; it recomputes no bound. What each item shows and the keys it reads:
//
//   - Figure 1 ("claesen2015-fig1", analytic): the paper's worked example of
//     rank CDFs, R = (B,E,D,G,H,A,F,C,I), P1 = {B,D,A,C}, P2 = {E,G,F}, as
//     step functions (1/4, 2/4, 3/4, 1 at ranks 1, 3, 6, 8 and 1/3, 2/3, 1 at
//     ranks 2, 4, 7), from the example alone.
//   - Figure 2 (data set fig2-d3, grid axis labeled = |P_L|): per |P_L| the
//     mean of auc-bounds bootstrap-lower:real, bootstrap-upper:real and
//     truth:same-model over the repeats, their 2.5 and 97.5 percentiles, the
//     mean width and the coverage (the share of repeats with lower <= truth
//     <= upper). Claims: the mean width decreases strictly in |P_L|; the
//     coverage is at least 90 % at every |P_L|.
//   - Figure 3 (fig3-d3): the curves bootstrap-lower-roc:SOURCE and
//     bootstrap-upper-roc:SOURCE of the first repeat that has curves, with
//     truth-roc, and per beta-hat multiple the mean bootstrap bounds and
//     point:SOURCE. Claims (Lemma 4): beta-hat < beta lowers both bounds,
//     beta-hat > beta raises them (on the means, and in how many repeats);
//     beta-hat = 0 underestimates the true AUC.
//   - Figure 4 (fig4-model1, fig4-model2): against beta-hat, the point
//     estimate point:SOURCE, its affine value affine:SOURCE = (AUC_PU -
//     b/2)/(1 - b) and the bootstrap bounds of both models, with the rank
//     CDFs cdf-known; the paper's inset table (AUROC at beta-hat 0 and 0.1)
//     beside ours; where the two models' order flips and whether the clamp
//     binds there (point differs from affine by more than rounding). Claims:
//     the paper's sign pattern; the order flips only where the clamp binds.
//     The two models and the true beta 0.05 are tuned so that the pattern
//     appears; the grid data sets fig4g-PAIR-bBETA-model1/2 (model 2 the
//     tuned N(2.15, 2^2) or the published N(2, 2^2), true betas 0.01-0.2)
//     give a table of both models' levels at beta-hat 0 and 0.1 per pair
//     and beta, and a finding of where the pattern appears (no verdict).
//   - Figure 5 (covtype, known-positives 0.05 and 0.1 when present): three
//     panels from the first repeat with curves: cdf-known, cdf-latent and
//     the band cdf-bootstrap-lower/upper; the ROC bounds
//     bootstrap-lower/upper-roc at real, real*0 and the interval with
//     truth-roc; the PR bounds bootstrap-lower/upper-pr likewise with
//     truth-pr. A table per cell of rank-cdf bootstrap-coverage and
//     dkw-coverage and the AUC and AUPR bounds. Claims: the bootstrap band
//     (pointwise) contains the latent positives' CDF at >= 90 % of the
//     cut-offs in the median split of each known-positive fraction (the
//     worst split shown beside it, not judged); the DKW
//     band (simultaneous) at >= 99 % in every split; the bounds contain the
//     true AUC in >= 90 % of the splits; the PR bounds are wider than the
//     ROC bounds.
//   - Appendix Table 1 (app-d1, app-d2, app-d3; axes known-positives,
//     known-negatives): the mean bootstrap AUC bounds (lower, upper, width)
//     at 0.5, 1 and 1.5 x beta and the true AUC. Appendix Table 2 (kn > 0):
//     the positive-based dkw-lower/upper and the negative-based
//     dkw-neg-lower/upper AUC bounds and which is tighter. Claims (a) known
//     negatives change the positive-based width only marginally, known
//     positives narrow it a lot; (b) at kn 0.8 and beta-hat = beta the
//     negative-based DKW bounds contain the true AUC and are narrower than the
//     positive-based; (c) beta-hat errors move the negative-based bounds
//     opposite to the positive-based (negative-based fall from 0.5 to 1.5 x
//     beta in every cell, positive-based rise in >= 90 %: Lemma 4 needs the
//     clamp not to bind, and with few known positives and a large beta it
//     binds); (d) known negatives do not guarantee tighter bounds (at
//     beta-hat = beta the positive-based are the tighter in some cells with
//     known negatives).
//
// Every table is written as Markdown, LaTeX and CSV (report.Table), every
// figure as PNG, PDF and SVG, the claims as claims.md; the HTML sections
// link them. A data set the run lacks (Manifest.Unavailable, or no ok
// records) gives a note and unchecked claims, not an error. The paper's
// only published numbers are Figure 4's inset table; its appendix tables are
// graphical in the available text, so they have no published column.
package claesen2015

// Package aaai2017 is the report of Jain, White and Radivojac, "Recovering
// true classifier performance in positive-unlabeled learning" (AAAI 2017),
// registered with package report as "aaai2017" (and drawn for schema-1
// results directories whose records hold auc or aucpr). Import it for its
// side effect to make the report and its analytic figures available.
//
// It draws, beside the published numbers (the appendix's Tables 1 and 2,
// embedded from published/):
//
//   - Tables 1 (AUC, metric auc) and 2 (AUC-PR, metric aucpr): per data set
//     and nominal beta, the mean true alpha, e (the mean absolute error of
//     the estimated beta - alpha, from Record.Estimates[E]), the mean truth
//     and PU value, and the mean absolute error against the truth of PU (key
//     pu), IR (indirect:real), DR (direct:real), IE (indirect:E) and DE
//     (direct:E); once against truth:traditional (the paper's: a bag trained
//     on the whole data set with the true labels) and once against
//     truth:same-model (the PU classifier's own scores with the true labels).
//     E is the config's first estimator (report.Input.Estimator). With the
//     clip option the indirect columns read indirect-clip:real and
//     indirect-clip:E. Table 2 has no direct recovery.
//   - Figure 2 (a)-(d): box plots of the signed errors against the
//     traditional truth by beta and by the error bin of beta-hat - alpha-hat.
//   - The appendix's sign test of indirect against direct AUC recovery over
//     the rows of Table 1 (report.CompareErrors at three decimals).
//   - The analytic Figures 3 ("aaai2017-fig3": 27 heat maps of the error of
//     Eq. 4 over (alpha-hat, beta-hat)) and 4 ("aaai2017-fig4": one of them
//     with the lines of the appendix), from the equations alone. Figure 4's
//     caption gives AUC_pu = 0.80 where Eq. 4 gives 0.70; the figure shows
//     the equation's value and a note says so.
package aaai2017

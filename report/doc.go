// Package report turns the records of an experiment into the papers' tables
// and figures, side by side with the published numbers (DESIGN.md section 9),
// and draws the analytic figures that need no data.
//
// Statistics. Box plots use type-7 quartiles (Hyndman & Fan 1996; R's and
// numpy's default): with h = (n-1)p on the sorted sample,
// Q(p) = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]); whiskers reach
// the most extreme data within 1.5 IQR of the box (Tukey; the default of the
// MATLAB and matplotlib box plots the papers show), points beyond are drawn
// as outliers. The AAAI-2017 appendix compares direct and indirect recovery
// by a sign test over the (data set, beta) experiments: the method with the
// smaller mean absolute error wins, ties (equal at the table's three
// decimals) are split alternately starting with the direct method, and
// P = sum_{i=k}^{n} C(n,i) / 2^n, k the indirect method's wins.
//
// Published values live as CSV under papers/<paper>/ with a header comment
// naming their source; they are embedded in the binary.
package report

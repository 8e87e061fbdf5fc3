// Package pulp is the report of "Evaluating Classification Performance with
// only Positive and Unlabeled Samples" (Hajizadeh, Li, Dollevoet and Tax,
// S+SSPR 2014, LNCS 8621, pp. 233-242: the PULP paper), registered with
// package report as "pulp". Import it for its side effect.
//
// The paper asks how well eight performance measures (AUC, F1, Lee & Liu's
// r^2/Pr[f=1], mutual information, Pearson's phi, MAP, PULP and Pseudo-F)
// computed on PU labels (labeled = positive, unlabeled = negative) track the
// same measures on the true labels, for three labelings of the positives
// (random; Scenario 1: the least representative positives left unlabeled;
// Scenario 2: the most representative left unlabeled) and a grid of
// Pr[y=1] in the unlabeled set.
//
// What it reads. One record per cell (data set, unlabeled prior, labeling,
// classifier, repeat) with status ok: Record.Dataset (the problem),
// Record.Repeat, Record.Grid["unlabeled-prior"] (a number),
// Record.Grid["labeling"] ("random", "scenario1", "scenario2"; other values
// become extra columns without published values) and
// Record.Grid["classifier"], and for each measure m in auc, f1, ll, mi,
// pearson, map, pulp, pseudo-f the keys Record.Metrics[m]["pu@f"] and
// ["true@f"], f = 1..K the held-out folds (a fold counts where both keys
// are present). A record without any "pu@"/"true@" key of a measure
// contributes its "pu" and "true" (the fold means) as one fold. Failed
// records are counted and listed; ok records without the labeling or a
// numeric unlabeled-prior are listed and left out.
//
// What it computes, per labeling, Pr[y=1] and measure: on each fold f and
// repeat, Spearman's rho (report.Spearman: Pearson's correlation of average
// ranks) between pu@f and true@f over the (problem, classifier)
// configurations, and their mean absolute deviation; each averaged over the
// folds, then over the repeats (a repeat being a replicate of the paper's
// whole experiment; with one repeat, as in the full config, this is the
// paper's 8-fold mean). A fold where rho is undefined (fewer than two
// configurations, or constant values) is left out of rho's mean and counted
// in the notes. Table 1 averages these over the Pr[y=1] grid; its "overall
// SD" row is the sample standard deviation (n - 1) of every PU value
// (pu@f of every record and fold) of the measure; a row beyond the paper's
// gives the same for the true values.
//
// The same over the fold means (Analysis.FoldMeans): each record's
// measure averaged over its folds, its keys "pu" and "true" (where it
// lacks either, the means of its pu@f and true@f), Spearman's rho and the
// MAD computed once over the configurations' fold means per labeling,
// Pr[y=1] and repeat, then averaged over the repeats and the grid; the
// SD rows over the fold-mean values (one per record). The per-fold view
// is the specification's reading of the paper's "8-fold CV" and the one
// the claims are judged on; a fold holds only 1/K of the labeled
// examples, so its values are noisy and its rank correlations lower. The
// paper does not say which it used, so the fold-mean view is reported
// beside it, to show how much of a gap to the paper fold noise accounts
// for.
//
// What it writes: table1.md/.tex/.csv (Table 1 beside the published one),
// table1-foldmeans.md/.tex/.csv (Table 1 over the fold means, beside the
// published one), fig2.png/.pdf/.svg (Figure 2: 2 rows, rank correlation
// and MAD, by 3 columns, the labelings, against Pr[y=1], a line with
// markers per measure), fig2.csv (scenario, pi, measure, rho, mad, n_configurations)
// and fig2.md (the same as two tables), fig2-foldmeans.csv (fig2.csv over
// the fold means; the figure itself is per fold), claims.md (the paper's
// claims checked: Claims, with the fold-mean measurements of claims 1-5
// in brackets, the verdicts per fold) and index.md (the whole report in
// Markdown, Table 1 (fold means) right after Table 1), and for a
// sensitivity run sensitivity.png/.pdf/.svg, .csv and .md.
//
// A sensitivity run (records with grid axis pulp-variant, the per-cell
// overrides of protocol biased-labeling; Variant) reads Table 1, Figure 2
// and the claims from its base variant's records alone, and adds the
// study (Sensitivity): today's protocol (the base variant on the problems
// every variant ran) and each open choice varied alone: the protocol
// variants of the records, the correlation over the fold means, subsets
// of the classifiers by family and weighting, of the Pr[y=1] grid and of
// the problems, and every base problem. Each option's Table-1 rank
// correlations come with bootstrap standard errors over the problems
// (BootstrapReplicates resamples with replacement); the figure
// sensitivity.png/.pdf/.svg draws them (a panel per labeling, a row per
// option), sensitivity.csv holds them, sensitivity.md sums them up, and a
// conclusion computed from them (SensitivityConclusion) says whether an
// option brings Table 1 back and under which the paper's comparisons hold.
//
// The comparison claims (2, 3, 6 and 7: a measure the best, or better than
// another) hold only by a margin of MarginSEs bootstrap standard errors of
// the difference, resampling the problems (Analysis.Noise); an analysis
// without that bootstrap (fewer than two problems) compares bare values
// and says so.
//
// The protocol is pueval's (the paper does not specify its classifiers,
// weights, Pr[y=1] grid, labeled fraction or mixture model), and 20
// Newsgroups bydate and MNIST stand in for its data (the protein and rail
// data are not available), so Table 1 is compared qualitatively.
package pulp

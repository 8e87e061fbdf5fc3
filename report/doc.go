// Package report turns the records of an experiment into tables and
// figures: the shared rendering, and a registry of
// reports that paper packages fill from their init functions.
//
// Reports. A config's report: field names a registered Paper; Write renders
// it into a directory with index.html: the run's facts from the manifest
// (code version, kernel, dates, machine, data notes, the run compared with
// its reference digests: Input.Verify), the paper's sections, the data sets
// the run could not use and the failed cells; and overview.json (Overview:
// the verdicts of the claims the report noted with Input.NoteClaims, the
// verification, the run's size and times), from which WriteLanding draws a
// page of cards that links several reports. The paper reproductions live in subpackages (one
// per paper, each drawing that paper's tables and figures beside the
// published numbers, which it embeds as CSV with a header comment naming
// their source; ReadPaperCSV reads them); a program gets them by importing
// those packages. This package registers one report itself, "summary", the
// default: for each metric, per data set and grid point, the number of ok
// runs, the mean of every record key (results' key constants: truth:ID, pu,
// direct:SOURCE, ...) and the mean absolute error of every key that is not a
// truth against each truth:ID. Schema-1 results directories name no report:
// the reports whose Paper.Schema1Metrics occur in the records are drawn.
//
// The page keeps red for problems (class "problem": a claim that does not
// hold, a failed cell); notes explain in the text's colour. A table's
// Markdown and LaTeX files are named under it, not linked (FilesLine): a
// browser shows them as plain text, and the page holds the same table. The
// summary shows a row per data set, grid point and recorded value (its
// CSV files keep a row per data set and grid point), and the head of every
// page lists the run's plug-ins with their options and, for a config
// derived from a built-in one, the settings it changed.
//
// Analytic figures are drawn from a paper's equations alone, without data
// (`pueval figure NAME`); paper packages register them with RegisterFigure,
// and AnalyticSection puts them into a report, shown at the size they are
// drawn (96 CSS pixels per inch), a figure of many panels in its Parts.
//
// Tables. Table renders rows of numbers as Markdown, LaTeX, CSV and HTML,
// each number optionally beside the published one: "ours (paper, ours -
// paper)" in Markdown and HTML, "ours (paper)" in LaTeX, and the columns X,
// X_paper, X_diff in CSV. In HTML a table with published values ends with
// two summary rows per column (Table.Summary): the means of ours and of the
// paper's values over the rows that have both, and their mean absolute
// difference. Numbers are printed at three decimals (the papers'
// precision), CSV at six significant digits.
//
// Figures are saved as PNG (200 dpi), PDF and SVG, byte-identical from run
// to run; axes are labelled at round steps that include 0 (ZeroTicks). Heat
// maps are drawn as one raster image per map at the PNG's resolution (cells
// drawn one by one leave seams in vector viewers and made 25 MB SVGs), with
// a sequential palette, light for small values (HeatPalette). Box plots use type-7 quartiles (Hyndman & Fan 1996; R's and
// numpy's default): with h = (n-1)p on the sorted sample,
// Q(p) = x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h]); whiskers reach
// the most extreme data within 1.5 IQR of the box (Tukey; the default of the
// MATLAB and matplotlib box plots the papers show), points beyond are drawn
// as outliers; a box of (almost) no spread is drawn 4 pt tall around its
// median so that its colour shows. An axis label stands 4 pt clear of its
// tick labels; LineChart.LogX labels a log axis in counts (CountTicks), and
// LineChart.LegendBelow puts a panel's legend under it.
//
// Sign test (CompareErrors), as the AAAI-2017 appendix compares two methods
// over experiments: per experiment the method with the smaller mean absolute
// error wins, ties (equal at the table's three decimals) are split
// alternately starting with the first method, and
// P = sum_{i=k}^{n} C(n,i) / 2^n, k the second method's wins, summed in
// integers and rounded once (BinomialUpperTail).
//
// Tables and claims have the same bits on every architecture: their
// arithmetic rounds every product before adding it (float64(a*b) + c),
// since Go fuses multiply-adds on arm64; the smoke reports' tables are
// pinned by hash (cli TestGoldenRecords, run under qemu-aarch64 by
// `make test-cross`). Figures are not promised that: the drawing code
// (charts.go, heat.go, plot.go) and the plotting libraries beneath it
// round as the platform does.
package report

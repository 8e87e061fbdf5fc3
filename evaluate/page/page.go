// Package page draws the HTML page of an evaluation (`pueval evaluate
// --html DIR`): the recovered ROC and precision-recall curves with their
// bootstrap bands and Claesen's bounds, the numbers with their intervals,
// every estimator side by side, the warnings and the assumptions. The
// page is self-contained: DIR/index.html and its figures (PNG, with PDF
// and SVG beside them), written with the report core's figures and page
// style, so that it passes the same browser checks as the papers' reports.
package page

import (
	"fmt"
	"html"
	"image/color"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot/vg"

	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/report"
)

// Meta describes where the evaluation came from, for the page's heading.
type Meta struct {
	Input   string // the input file
	Command string // the command line
	Columns string // which column of the input was read as what ("" to leave out)
}

// Colours: the PU curve red and dashed, the recovered curve blue with its
// band a light blue, Claesen's bounds green, the true curve (benchmark data)
// black.
var (
	truthColor     = color.RGBA{A: 0xff}
	puColor        = color.RGBA{R: 0xd6, G: 0x3a, B: 0x3a, A: 0xff}
	recoveredColor = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	bandColor      = color.RGBA{R: 0xc6, G: 0xd9, B: 0xf2, A: 0xff}
	boundsColors   = [2]color.Color{color.RGBA{R: 0x94, G: 0xd6, B: 0xa4, A: 0xff}, color.RGBA{R: 0x1e, G: 0x7a, B: 0x38, A: 0xff}}
)

// Write draws the page of res into dir (created if needed): index.html,
// roc.{png,pdf,svg} and pr.{png,pdf,svg}.
func Write(dir string, res *evaluate.Result, m Meta) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, fig := range figures(res) {
		f, err := fig.lc.Figure(fig.name, 17*vg.Centimeter, 11*vg.Centimeter)
		if err != nil {
			return err
		}
		if _, err := f.Save(dir); err != nil {
			return err
		}
	}
	title := "How good is the model? " + m.Input
	return report.WriteIndex(dir, title, summary(res, m), warnings(res), numbers(res), figureSection(), estimators(res), boundsSection(res), assumptions(res))
}

type namedChart struct {
	name string
	lc   report.LineChart
}

func xy(pts []evaluate.Point) (x, y []float64) {
	for _, p := range pts {
		x, y = append(x, float64(p[0])), append(y, float64(p[1]))
	}
	return x, y
}

func floats(v []evaluate.Float) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// chart draws one kind of curve.
func chart(c evaluate.Curve, title, xl, yl string, diagonal bool, puName, recName, truthName string, res *evaluate.Result) report.LineChart {
	lc := report.LineChart{Title: title, XLabel: xl, YLabel: yl, Diagonal: diagonal, XMin: 0, XMax: 1, YMin: 0, YMax: 1}
	if b := c.Band; b != nil {
		lc.Bands = append(lc.Bands, report.Band{Name: fmt.Sprintf("%s %% bootstrap band (pointwise)", pct(res.Bootstrap.Level)),
			X: floats(b.X), Lower: floats(b.Lower), Upper: floats(b.Upper), Color: bandColor})
	}
	if len(c.BoundsUpper) > 0 {
		x, y := xy(c.BoundsUpper)
		lc.Series = append(lc.Series, report.Series{Name: "upper bound (Claesen), on L and U", X: x, Y: y, Color: boundsColors[1]})
		x, y = xy(c.BoundsLower)
		lc.Series = append(lc.Series, report.Series{Name: "lower bound (Claesen), on L and U", X: x, Y: y, Color: boundsColors[0]})
	}
	x, y := xy(c.PU)
	lc.Series = append(lc.Series, report.Series{Name: puName, X: x, Y: y, Color: puColor, Dashed: true})
	if len(c.Recovered) > 0 {
		x, y := xy(c.Recovered)
		lc.Series = append(lc.Series, report.Series{Name: recName, X: x, Y: y, Color: recoveredColor})
	}
	if len(c.Truth) > 0 {
		x, y := xy(c.Truth)
		lc.Series = append(lc.Series, report.Series{Name: truthName, X: x, Y: y, Color: truthColor})
	}
	return lc
}

func figures(res *evaluate.Result) []namedChart {
	pri := fmt.Sprintf("alpha %s, beta %s", f3(res.Priors.Alpha), f3(res.Priors.Beta))
	m := res.Metrics
	var tr evaluate.Truth
	if res.Truth != nil {
		tr = *res.Truth
	}
	return []namedChart{
		{"roc", chart(res.Curves.ROC, "ROC ("+pri+")", "false positive rate", "true positive rate", true,
			fmt.Sprintf("PU: L against U (AUC %s)", f3(m.AUC.PU)), fmt.Sprintf("recovered, on U (AUC %s)", f3(m.AUC.Recovered)),
			fmt.Sprintf("true, on U (AUC %s)", f3(tr.AUC)), res)},
		{"pr", chart(res.Curves.PR, "Precision-recall ("+pri+")", "recall", "precision", false,
			fmt.Sprintf("PU: L against U (AP %s)", f3(m.AUCPR.PU)), fmt.Sprintf("recovered, on U (AUC-PR %s)", f3(m.AUCPR.Recovered)),
			fmt.Sprintf("true, on U (AP %s)", f3(tr.AUCPR)), res)},
	}
}

func f3(x evaluate.Float) string {
	if !x.Ok() {
		if float64(x) > 0 {
			return "+Inf"
		}
		return "–"
	}
	return strconv.FormatFloat(float64(x), 'f', 3, 64)
}

func pct(x evaluate.Float) string { return strconv.FormatFloat(100*float64(x), 'g', -1, 64) }

func ci(iv *evaluate.Interval) string {
	if iv == nil {
		return ""
	}
	return "[" + f3(iv.Low) + ", " + f3(iv.High) + "]"
}

func esc(s string) string { return html.EscapeString(s) }

func summary(res *evaluate.Result, m Meta) string {
	var b strings.Builder
	b.WriteString("<table class=\"facts\">\n")
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><th>%s</th><td>%s</td></tr>\n", esc(k), esc(v)) }
	row("input", fmt.Sprintf("%s: %d labeled (L), %d unlabeled (U); c = |L|/(|L|+|U|) = %s", m.Input, res.NLabeled, res.NUnlabeled, f3(res.C)))
	if m.Columns != "" {
		row("columns", m.Columns)
	}
	if s := res.Scores; s.Source == "given" {
		row("scores", fmt.Sprintf("given held-out scores, %d distinct values", s.Distinct))
	} else {
		row("scores", fmt.Sprintf("trained %s labeled against unlabeled, %s, seed %d (%.1f s)", s.Classifier, s.HeldOut, s.Seed, s.Seconds))
	}
	p := res.Priors
	if p.Source == "given" {
		row("alpha, beta", fmt.Sprintf("given: alpha %s, beta %s", f3(p.Alpha), f3(p.Beta)))
	} else {
		v := fmt.Sprintf("estimated (%s): alpha %s, beta %s", p.Method, f3(p.Alpha), f3(p.Beta))
		if p.Region != nil {
			v += fmt.Sprintf("; the intervals allow for alpha in %s and beta in %s", ci(&p.Region.Alpha), ci(&p.Region.Beta))
		}
		if !p.Valid {
			v += " — unusable, no recovered number"
		}
		row("alpha, beta", v)
	}
	if t := res.Truth; t != nil {
		row("truth", fmt.Sprintf("from the true classes given with the input: alpha %s, beta %s", f3(t.Alpha), f3(t.Beta)))
	}
	row("meaning", "alpha is the fraction of positives among the unlabeled examples, beta among the labeled ones (1: clean labels)")
	if bs := res.Bootstrap; bs != nil {
		row("intervals", fmt.Sprintf("%s %% bootstrap (%s), %d resamples (%d used), seed %d; they cover %s", pct(bs.Level), bs.Method, bs.Resamples, bs.Used, bs.Seed, bs.Covers))
	}
	row("command", m.Command)
	b.WriteString("</table>\n")
	return b.String()
}

func warnings(res *evaluate.Result) string {
	if len(res.Warnings) == 0 {
		return "<h2>Warnings</h2>\n<p>None.</p>\n"
	}
	var b strings.Builder
	b.WriteString("<h2>Warnings</h2>\n<ul>\n")
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "<li class=\"note\"><code>%s</code>: %s</li>\n", esc(w.Code), esc(w.Message))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

func numbers(res *evaluate.Result) string {
	var b strings.Builder
	b.WriteString("<h2>How good the model is</h2>\n")
	truth := res.Truth != nil
	b.WriteString("<table>\n<thead><tr><th>number</th><th>about</th><th>PU (biased)</th><th>recovered</th><th>interval</th><th>at score &ge;</th><th>PU at score &ge;</th>")
	if truth {
		b.WriteString("<th>truth</th>")
	}
	b.WriteString("</tr></thead>\n<tbody>\n")
	var tr evaluate.Truth
	if truth {
		tr = *res.Truth
	}
	thr := func(x *evaluate.Float) string {
		return evaluate.FormatThreshold(x, "–", func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) })
	}
	m := res.Metrics
	nan := evaluate.Float(math.NaN())
	trAt := evaluate.TruthAtThreshold{Acc: nan, BAcc: nan, F1: nan, MCC: nan}
	if tr.AtThreshold != nil {
		trAt = *tr.AtThreshold
	}
	for _, r := range []struct {
		name, at string
		m        evaluate.Metric
		t, tAt   evaluate.Float
	}{{"AUC", "", m.AUC, tr.AUC, nan}, {"AUC-PR", "", m.AUCPR, tr.AUCPR, nan}, {"best accuracy", "accuracy", m.Acc, tr.Acc, trAt.Acc},
		{"best balanced accuracy", "balanced accuracy", m.BAcc, tr.BAcc, trAt.BAcc}, {"best F1", "F1", m.F1, tr.F1, trAt.F1}, {"best MCC", "MCC", m.MCC, tr.MCC, trAt.MCC}} {
		on := "U (unlabeled)"
		if r.m.Set == "D" {
			on = "L &cup; U (all)"
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td><b>%s</b></td><td>%s</td><td>%s</td><td>%s</td>", r.name, on,
			f3(r.m.PU), f3(r.m.Recovered), ci(r.m.Interval), thr(r.m.Threshold), thr(r.m.PUThreshold))
		if truth {
			fmt.Fprintf(&b, "<td>%s</td>", f3(r.t))
		}
		b.WriteString("</tr>\n")
		if a := r.m.AtThreshold; a != nil {
			fmt.Fprintf(&b, "<tr><td>%s at your threshold</td><td>%s</td><td>%s</td><td><b>%s</b></td><td>%s</td><td>%s</td><td>%s</td>", r.at, on,
				f3(a.PU), f3(a.Recovered), ci(a.Interval), thr(&a.Threshold), thr(&a.Threshold))
			if truth {
				fmt.Fprintf(&b, "<td>%s</td>", f3(r.tAt))
			}
			b.WriteString("</tr>\n")
		}
		if r.m.Direct != nil {
			fmt.Fprintf(&b, "<tr><td>AUC, direct (Eq. 4)</td><td>%s</td><td></td><td>%s</td><td>%s</td><td></td><td></td>", on, f3(*r.m.Direct), ci(r.m.DirectInterval))
			if truth {
				b.WriteString("<td></td>")
			}
			b.WriteString("</tr>\n")
		}
	}
	b.WriteString("</tbody></table>\n")
	b.WriteString("<p>AUC and AUC-PR are about the unlabeled set with its true labels (AAAI-2017); the best accuracy, balanced accuracy, F1 and MCC about all the data, labeled and unlabeled, with their true labels (PSB-2019), each at the threshold given (predict positive when score &ge; threshold), and, when you gave one, at your own threshold. PU numbers read labeled as positive and unlabeled as negative.</p>\n")
	return b.String()
}

func figureSection() string {
	var b strings.Builder
	b.WriteString("<h2>Curves</h2>\n")
	for _, f := range []struct{ name, caption string }{
		{"roc", "ROC: the PU curve (labeled against unlabeled), the recovered curve on the unlabeled set with its bootstrap band, Claesen's bounds on all the data (labeled and unlabeled), and, given the true classes, the true curve on the unlabeled set."},
		{"pr", "Precision-recall: likewise. The PU precision depends on how many examples are labeled and is not a performance number."},
	} {
		fmt.Fprintf(&b, "<figure><img src=\"%s.png\" width=\"960\" alt=\"%s curve\"><figcaption>%s <a href=\"%s.pdf\">PDF</a> <a href=\"%s.svg\">SVG</a></figcaption></figure>\n",
			f.name, f.name, esc(f.caption), f.name, f.name)
	}
	return b.String()
}

func estimators(res *evaluate.Result) string {
	var b strings.Builder
	b.WriteString("<h2>Estimators of alpha and beta, side by side</h2>\n")
	b.WriteString("<table>\n<thead><tr><th>estimator</th><th>reads</th><th>alpha</th><th>beta</th><th>beta &minus; alpha</th><th>AUC</th><th>AUC-PR</th><th>best F1</th><th>best MCC</th><th>seconds</th><th>note</th></tr></thead>\n<tbody>\n")
	for _, e := range res.Estimators {
		var note []string
		if e.CleanLabels {
			note = append(note, "assumes beta = 1")
		}
		if e.Subsampled {
			note = append(note, fmt.Sprintf("%d-row subsample", e.Rows))
		}
		if e.Error != "" {
			note = append(note, "failed: "+e.Error)
		} else if e.Recovered == nil {
			note = append(note, "beta ≤ alpha: nothing recovered")
		}
		nan := evaluate.Float(math.NaN())
		h := evaluate.Headline{AUC: nan, AUCPR: nan, F1: nan, MCC: nan}
		if e.Recovered != nil {
			h = *e.Recovered
		}
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%.3f</td><td>%s</td></tr>\n",
			esc(e.Method), e.Reads, f3(e.Alpha), f3(e.Beta), f3(e.BetaMinusAlpha), f3(h.AUC), f3(h.AUCPR), f3(h.F1), f3(h.MCC), e.Seconds, esc(strings.Join(note, "; ")))
	}
	b.WriteString("</tbody>\n")
	if a := res.Agreement; a != nil {
		fmt.Fprintf(&b, "<tfoot><tr><th>spread</th><td>%d ok</td><td>%s – %s</td><td>%s – %s</td><td>%s – %s</td><td>%s – %s</td><td></td><td>%s – %s</td><td></td><td></td><td></td></tr></tfoot>\n",
			a.Estimators, f3(a.Alpha.Min), f3(a.Alpha.Max), f3(a.Beta.Min), f3(a.Beta.Max), f3(a.BetaMinusAlpha.Min), f3(a.BetaMinusAlpha.Max),
			f3(a.AUC.Min), f3(a.AUC.Max), f3(a.F1.Min), f3(a.F1.Max))
	}
	b.WriteString("</table>\n<p>Each row recovers the numbers under its own alpha and beta; the headline numbers use the first row's (or the given ones). The recovery divides by beta &minus; alpha, so where the estimators disagree on it, the numbers depend on which one is right.</p>\n")
	return b.String()
}

func boundsSection(res *evaluate.Result) string {
	bd := res.Bounds
	if bd == nil {
		return ""
	}
	return fmt.Sprintf("<h2>Bounds</h2>\n<p>Claesen et al. (2015), reading every labeled example as a known positive, for a fraction of positives among the unlabeled in [%s, %s] (the estimators' alpha; Claesen's &beta;), from a %s %% %s band of %d resamples on the known positives' ranks: AUC in [%s, %s], AUPR in [%s, %s], on all the data.</p>\n",
		f3(bd.ClaesenBeta.Low), f3(bd.ClaesenBeta.High), pct(bd.Level), esc(bd.Band), bd.Resamples, f3(bd.AUC.Low), f3(bd.AUC.High), f3(bd.AUPR.Low), f3(bd.AUPR.High))
}

func assumptions(res *evaluate.Result) string {
	var b strings.Builder
	b.WriteString("<h2>What the numbers assume</h2>\n<ul>\n")
	for _, a := range res.Assumptions {
		fmt.Fprintf(&b, "<li><b>%s</b>: %s</li>\n", esc(a.Numbers), esc(a.Needs))
	}
	b.WriteString("</ul>\n")
	return b.String()
}

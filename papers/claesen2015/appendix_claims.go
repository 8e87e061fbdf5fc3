package claesen2015

import (
	"fmt"
	"math"
	"strings"

	"github.com/pueval/pueval/report"
)

// The cells the appendix claims compare (after the paper's "10 % known
// positives and 40/60/80 % known negatives").
const (
	AppKP     = 0.1 // the known-positive fraction of claims (a) and (b)
	AppKPHigh = 0.5 // claim (a): more known positives
	AppKN     = 0.8 // claim (b): many known negatives
)

// Claim (a)'s reading of "marginally" and "a lot", on the positive-based
// bootstrap width at beta-hat = beta: known negatives change it by less than
// MarginalChange (relative, the largest change over the kn values at kp
// AppKP), and kp AppKPHigh narrows it by more than LargeChange (relative to
// kp AppKP, both without known negatives).
const (
	MarginalChange = 0.10
	LargeChange    = 0.50
)

// find returns the row of ds at (kp, kn).
func find(rows []AppRow, ds string, kp, kn float64) (AppRow, bool) {
	for _, r := range rows {
		if r.Dataset == ds && math.Abs(r.KP-kp) < 1e-9 && math.Abs(r.KN-kn) < 1e-9 {
			return r, true
		}
	}
	return AppRow{}, false
}

// appDatasets are the data sets of rows, in order.
func appDatasets(rows []AppRow) []string {
	var out []string
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1] != r.Dataset {
			out = append(out, r.Dataset)
		}
	}
	return out
}

// AppendixClaims checks the appendix's three claims on the rows.
//
// (a) per data set: the largest relative change of the bootstrap width at
// kp AppKP over its kn values is below MarginalChange, and going from kp
// AppKP to AppKPHigh (kn 0) narrows it by more than LargeChange.
//
// (b) per data set at kp AppKP, kn AppKN, beta-hat = beta: the mean
// negative-based DKW bounds contain the mean true AUC, they contain each
// repeat's true AUC in at least MinCoverage of the repeats, and they are
// narrower than the positive-based DKW bounds.
//
// (c) over the cells with known negatives: from beta-hat 0.5 to 1.5 x beta
// the midpoint of the negative-based DKW bounds falls in every cell and that
// of the positive-based rises (Lemma 4) in at least MinCoverage of them:
// Lemma 4 assumes the clamp does not bind, and with few known positives and
// a large beta (known negatives leave mostly positives in U) it does.
func AppendixClaims(rows []AppRow) []report.Claim {
	return []report.Claim{appClaimA(rows), appClaimB(rows), appClaimC(rows), appClaimD(rows)}
}

// appClaimD: known negatives do not guarantee tighter bounds (App. Table 2):
// at beta-hat = beta the positive-based DKW bounds are the tighter in some
// cell with known negatives, the negative-based in another.
func appClaimD(rows []AppRow) report.Claim {
	c := report.Claim{Item: "App. (d)", Test: "known negatives do not guarantee tighter bounds: at beta-hat = beta the positive-based DKW bounds are the tighter in some cells with known negatives, the negative-based in others"}
	n, pos, neg, missing := 0, 0, 0, 0
	var posCells []string
	for _, r := range rows {
		if r.KN <= 0 {
			continue
		}
		switch Tighter(get(r.DKW, 1), get(r.DKWNeg, 1)) {
		case "-":
			missing++
		case "positives":
			n++
			pos++
			if len(posCells) < 6 {
				posCells = append(posCells, fmt.Sprintf("%s kp %s kn %s", r.Dataset, g(r.KP), g(r.KN)))
			}
		case "negatives":
			n++
			neg++
		}
	}
	if n == 0 {
		c.Detail = "the records lack DKW bounds with known negatives at beta-hat = beta"
		return c
	}
	// A cell of each kind proves the claim; without one, a cell the records
	// could not compare might have been it.
	c.Verdict = report.VerdictOf(pos > 0 && neg > 0)
	if c.Verdict == report.Fails && missing > 0 {
		c.Verdict = report.NotChecked
	}
	c.Detail = fmt.Sprintf("of %d cells with known negatives the positive-based are the tighter in %d, the negative-based in %d", n, pos, neg)
	if len(posCells) > 0 {
		c.Detail += " (positive-based tighter e.g. in " + strings.Join(posCells, ", ") + ")"
	}
	c.Detail += cellsWithout(missing, "both DKW bounds at beta-hat = beta")
	return c
}

func appClaimA(rows []AppRow) report.Claim {
	c := report.Claim{Item: "App. (a)", Test: fmt.Sprintf("known negatives change the width of the positive-based bounds only marginally (< %.0f %%), "+
		"more known positives narrow them a lot (> %.0f %%, kp %s -> %s)", 100*MarginalChange, 100*LargeChange, g(AppKP), g(AppKPHigh))}
	passed, failed, missing := 0, 0, 0
	var parts []string
	for _, ds := range appDatasets(rows) {
		base, ok1 := find(rows, ds, AppKP, 0)
		high, ok2 := find(rows, ds, AppKPHigh, 0)
		if !ok1 || !ok2 {
			continue
		}
		w0 := get(base.Boot, 1).Width()
		knEffect, kns := 0.0, []string{}
		for _, r := range rows {
			if r.Dataset == ds && math.Abs(r.KP-AppKP) < 1e-9 {
				w := get(r.Boot, 1).Width()
				knEffect = math.Max(knEffect, math.Abs(w-w0)/w0)
				kns = append(kns, fmt.Sprintf("kn %s %s", g(r.KN), f3(w)))
			}
		}
		kpEffect := 1 - get(high.Boot, 1).Width()/w0
		if math.IsNaN(knEffect) || math.IsNaN(kpEffect) {
			missing++
			continue
		}
		if knEffect < MarginalChange && kpEffect > LargeChange {
			passed++
		} else {
			failed++
		}
		parts = append(parts, fmt.Sprintf("%s: widths at kp %s %s (largest change %.1f %%); kp %s kn 0 %s (%.1f %% narrower)",
			ds, g(AppKP), strings.Join(kns, ", "), 100*knEffect, g(AppKPHigh), f3(get(high.Boot, 1).Width()), 100*kpEffect))
	}
	if passed+failed == 0 {
		c.Detail = fmt.Sprintf("the records lack kp %s and %s without known negatives", g(AppKP), g(AppKPHigh)) + cellsWithout(missing, "the bootstrap widths")
		return c
	}
	c.Verdict = report.VerdictOver(passed, failed, missing)
	c.Detail = "bootstrap, beta-hat = beta; " + strings.Join(parts, "; ") + cellsWithout(missing, "the bootstrap widths")
	return c
}

func appClaimB(rows []AppRow) report.Claim {
	c := report.Claim{Item: "App. (b)", Test: fmt.Sprintf("at kn %s and beta-hat = beta the negative-based DKW bounds contain the true AUC and are narrower than the positive-based (kp %s)", g(AppKN), g(AppKP))}
	passed, failed, missing := 0, 0, 0
	var parts []string
	for _, ds := range appDatasets(rows) {
		r, found := find(rows, ds, AppKP, AppKN)
		neg, pos := get(r.DKWNeg, 1), get(r.DKW, 1)
		if !found {
			continue
		}
		if math.IsNaN(neg.Width()) || math.IsNaN(pos.Width()) || math.IsNaN(r.Truth) {
			missing++
			continue
		}
		share := float64(r.NegCovered[1]) / float64(r.Runs)
		if neg.Contains(r.Truth) && share >= MinCoverage && neg.Width() < pos.Width() {
			passed++
		} else {
			failed++
		}
		parts = append(parts, fmt.Sprintf("%s: negative [%s, %s] (width %s, contains the truth in %d/%d repeats) vs true %s; positive width %s",
			ds, f3(neg.Lower), f3(neg.Upper), f3(neg.Width()), r.NegCovered[1], r.Runs, f3(r.Truth), f3(pos.Width())))
	}
	if passed+failed == 0 {
		c.Detail = fmt.Sprintf("the records lack negative-based DKW bounds at kp %s, kn %s", g(AppKP), g(AppKN)) + cellsWithout(missing, "both DKW bounds and the true AUC")
		return c
	}
	c.Verdict = report.VerdictOver(passed, failed, missing)
	c.Detail = strings.Join(parts, "; ") + cellsWithout(missing, "both DKW bounds and the true AUC")
	return c
}

func appClaimC(rows []AppRow) report.Claim {
	c := report.Claim{Item: "App. (c)", Test: fmt.Sprintf("errors in beta-hat move the negative-based bounds opposite to the positive-based: from 0.5 to 1.5 x beta "+
		"the negative-based DKW bounds fall in every cell with known negatives and the positive-based rise in >= %.0f %% of them "+
		"(Lemma 4 holds where the clamp does not bind)", 100*MinCoverage)}
	mid := func(iv Interval) float64 { return float64((iv.Lower + iv.Upper) / 2) }
	n, rise, fall, missing := 0, 0, 0, 0
	var dPos, dNeg []float64
	var bad []string
	for _, r := range rows {
		if r.KN <= 0 {
			continue
		}
		p := mid(get(r.DKW, 1.5)) - mid(get(r.DKW, 0.5))
		q := mid(get(r.DKWNeg, 1.5)) - mid(get(r.DKWNeg, 0.5))
		if math.IsNaN(p) || math.IsNaN(q) {
			missing++
			continue
		}
		n++
		dPos, dNeg = append(dPos, p), append(dNeg, q)
		if p > 0 {
			rise++
		}
		if q < 0 {
			fall++
		}
		if (p <= 0 || q >= 0) && len(bad) < 8 {
			bad = append(bad, fmt.Sprintf("%s kp %s kn %s (beta %s, so 1.5 x beta = %s): positive %+.3f, negative %+.3f",
				r.Dataset, g(r.KP), g(r.KN), f3(r.Beta), f3(1.5*r.Beta), p, q))
		}
	}
	if n == 0 {
		c.Detail = "the records lack DKW bounds at 0.5 and 1.5 x beta with known negatives"
		return c
	}
	// Refuted on the compared cells, it fails; not refuted, it holds only
	// if no cell lacked the bounds.
	c.Verdict = report.VerdictOf(fall == n && float64(rise) >= MinCoverage*float64(n))
	if c.Verdict == report.Holds && missing > 0 {
		c.Verdict = report.NotChecked
	}
	c.Detail = fmt.Sprintf("midpoints of the DKW bounds over %d cells with known negatives: negative-based fall in %d, positive-based rise in %d; mean shift positive-based %+.3f, negative-based %+.3f",
		n, fall, rise, mean(dPos), mean(dNeg))
	if len(bad) > 0 {
		c.Detail += "; the others: " + strings.Join(bad, "; ") +
			" (few known positives and a large beta: the top of the ranking cannot hold 1.5 x beta |U| T(r) unlabeled positives, the clamp binds and flattens the positive-based bounds)"
	}
	c.Detail += cellsWithout(missing, "both DKW bounds at 0.5 and 1.5 x beta")
	return c
}

// cellsWithout is "; 2 cell(s) without WHAT (not compared)", "" for none.
func cellsWithout(n int, what string) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d cell(s) without %s (not compared)", n, what)
}

// writeAppendix adds the appendix tables' section.
func writeAppendix(s *section, in report.Input) error {
	s.heading("Appendix Tables 1 and 2: known positives, known negatives and beta-hat (data sets app-d1, app-d2, app-d3)")
	rows := AppendixRows(in.Records)
	claims := AppendixClaims(rows)
	if len(rows) == 0 {
		var why []string
		for _, ds := range []string{"app-d1", "app-d2", "app-d3"} {
			why = append(why, absence(in, ds))
		}
		s.noRecords(strings.Join(why, "; "), claims...)
		return nil
	}
	s.para("2,000 positives and 10,000 negatives per score model (d1 N(1, 0.3^2), d2 N(2, 2^2), d3 N(1, 1) against N(0, 1)); "+
		"known fractions kp and kn of the positives and the negatives, the rest unlabeled, so beta grows with kn. "+
		"The paper's table values are not in the available text (its tables are graphical): there is no published column.", false)
	if err := s.table(AppendixTable1(rows), "app-table1"); err != nil {
		return err
	}
	if err := s.table(AppendixTable2(rows), "app-table2"); err != nil {
		return err
	}
	s.claimList(claims...)
	return nil
}

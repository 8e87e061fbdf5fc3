package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// boundsFigure1 is the ranking of Claesen et al.'s Figure 1, R = (B, E, D,
// G, H, A, F, C, I), scores 9..1, with P1 = {B, D, A, C} known (label 1)
// and the rest unlabeled (empty or 0).
const boundsFigure1 = "score,label\n9,1\n8,\n7,1\n6,0\n5,\n4,1\n3,\n2,1\n1,\n"

type boundsJSON struct {
	N              int `json:"n"`
	KnownPositives int `json:"known_positives"`
	KnownNegatives int `json:"known_negatives"`
	Unlabeled      int
	Alpha          struct {
		Low, High float64
		Source    string
	}
	Peek *struct {
		Positives, Negatives int
		Credible             string
		Level                float64
	}
	Band struct {
		Kind      string
		Resamples int
		Seed      uint64
		Level     float64
	}
	Ties          string
	PU            struct{ AUC, AUPR float64 }
	AUC, AUPR     boundsArea
	NegativeBased *struct {
		AUC, AUPR boundsArea
	} `json:"negative_based"`
	Tighter *struct {
		AUC, AUPR struct {
			Lower, Upper float64
			From         string
		}
	}
	Warnings []string
	Columns  struct {
		Label, Score, Truth string
		Features, Ignored   []string
	}
}

// boundsArea is one area's bounds; LowerAt and UpperAt say where the bounds
// over an interval lie.
type boundsArea struct {
	Lower, Upper float64
	LowerAt      *float64 `json:"lower_at"`
	UpperAt      *float64 `json:"upper_at"`
}

// values are the bounds without where they lie.
func (a boundsArea) values() struct{ Lower, Upper float64 } {
	return struct{ Lower, Upper float64 }{a.Lower, a.Upper}
}

func runBoundsJSON(t *testing.T, args ...string) boundsJSON {
	t.Helper()
	out, _, err := runCLI(t, append([]string{"bounds"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var got boundsJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return got
}

// Figure 1's ranking with P1 known, beta = 0.4 (P_U = floor(0.4 x 5) = 2 of
// the 5 unlabeled), the DKW band at 0.95 (eps = sqrt(ln 40 / 8) = 0.679): by
// hand from the ECDF 1/4, 1/2, 3/4, 1 at ranks 0, 2, 5, 7, T_lb = 0, 0, 0, 0,
// 0, .071, .071, .321, .321 and T_ub = .929 then 1, so theta is 0 (floor of
// 2 T_lb) and 2 (ceil of 2 T_ub) at every rank. With cut_U = 0 1 1 2 3 3 4
// 4 5 and TP_U = max(min(cut_U, theta), cut_U - 3):
//
//	lower: TP 1 1 2 2 2 3 4 5 6 of 6, FP 0 1 1 2 3 3 3 3 3 of 3: sorted
//	       ROC (0,1/6) (1/3,1/6) (1/3,1/3) (2/3,1/3) (1,1/3) ... (1,1),
//	       AUC 1/18 + 1/9 + 1/9 = 5/18; AUPR (precision TP/(r+1)) 2573/5040;
//	upper: TP 1 2 3 4 4 5 5 6 6, FP 0 0 0 0 1 1 2 2 3: AUC 2/9 + 5/18 + 1/3
//	       = 5/6; AUPR 1/6 + 1/6 + 3/20 + 1/7 + 1/8 = 631/840;
//	PU (beta 0): AUC 12/20 (E, G, H, F, I have 1, 2, 2, 3, 4 known positives
//	       above them), AUPR 7/40 + 23/168 + 17/144 = 2167/5040.
//
// estimators/bounds/testdata/claesen_reference.py gives the same numbers.
func TestBoundsFigure1ByHand(t *testing.T) {
	in := writeFile(t, "fig1.csv", boundsFigure1)
	for _, ties := range []string{"grouped", "input-order"} { // no ties: the same
		got := runBoundsJSON(t, "--input", in, "--alpha", "0.4", "--band", "dkw", "--ties", ties)
		if got.N != 9 || got.KnownPositives != 4 || got.KnownNegatives != 0 || got.Unlabeled != 5 ||
			got.Alpha.Low != 0.4 || got.Alpha.High != 0.4 || got.Alpha.Source != "--alpha" || got.Peek != nil ||
			got.Band.Kind != "dkw" || got.Band.Resamples != 0 || got.Band.Level != 0.95 || got.Ties != ties ||
			got.NegativeBased != nil || got.Tighter != nil || got.Warnings != nil {
			t.Errorf("%s: header %+v", ties, got)
		}
		for _, c := range []struct {
			what      string
			got, want float64
		}{
			{"AUC lower", got.AUC.Lower, 5. / 18}, {"AUC upper", got.AUC.Upper, 5. / 6},
			{"AUPR lower", got.AUPR.Lower, 2573. / 5040}, {"AUPR upper", got.AUPR.Upper, 631. / 840},
			{"PU AUC", got.PU.AUC, 0.6}, {"PU AUPR", got.PU.AUPR, 2167. / 5040},
		} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: %s = %v, want %v", ties, c.what, c.got, c.want)
			}
		}
	}
}

// The JSON of a run with known negatives (label 0), a peeked credible
// interval and the bootstrap: every field, the negative-based bounds, the
// tighter of the two, and the same output for the same seed.
func TestBoundsJSONFields(t *testing.T) {
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 300 {
		label := ""
		switch {
		case i%7 == 0 && i < 200:
			label = "1"
		case i%5 == 0 && i > 120:
			label = "0"
		}
		b.WriteString(strconv.Itoa(300-i) + "," + label + "\n")
	}
	in := writeFile(t, "pnu.csv", b.String())
	args := []string{"--input", in, "--negatives", "0", "--peek-positives", "30", "--peek-negatives", "70", "--resamples", "500", "--seed", "7"}
	got := runBoundsJSON(t, args...)
	if got.N != 300 || got.KnownPositives != 29 || got.KnownNegatives != 33 || got.Unlabeled != 238 {
		t.Errorf("counts %+v", got)
	}
	if got.Alpha.Source != "peek" || got.Peek == nil || got.Peek.Positives != 30 || got.Peek.Negatives != 70 ||
		got.Peek.Credible != "equal-tailed" || got.Peek.Level != 0.95 || !(got.Alpha.Low < 0.3 && 0.3 < got.Alpha.High) {
		t.Errorf("alpha %+v, peek %+v", got.Alpha, got.Peek)
	}
	if got.Band.Kind != "bootstrap" || got.Band.Resamples != 500 || got.Band.Seed != 7 || got.Ties != "grouped" {
		t.Errorf("band %+v, ties %s", got.Band, got.Ties)
	}
	if got.NegativeBased == nil || got.Tighter == nil {
		t.Fatalf("no negative-based bounds: %+v", got)
	}
	for _, c := range []struct {
		pos, neg, tight struct{ Lower, Upper float64 }
		from            string
	}{
		{got.AUC.values(), got.NegativeBased.AUC.values(), struct{ Lower, Upper float64 }{got.Tighter.AUC.Lower, got.Tighter.AUC.Upper}, got.Tighter.AUC.From},
		{got.AUPR.values(), got.NegativeBased.AUPR.values(), struct{ Lower, Upper float64 }{got.Tighter.AUPR.Lower, got.Tighter.AUPR.Upper}, got.Tighter.AUPR.From},
	} {
		want, from := c.pos, "positives"
		if c.neg.Upper-c.neg.Lower < c.pos.Upper-c.pos.Lower {
			want, from = c.neg, "negatives"
		}
		if c.tight != want || c.from != from {
			t.Errorf("tighter %v from %s; positive-based %v, negative-based %v", c.tight, c.from, c.pos, c.neg)
		}
	}
	if again := runBoundsJSON(t, args...); again.AUC.values() != got.AUC.values() || again.AUPR.values() != got.AUPR.values() ||
		again.NegativeBased.AUC.values() != got.NegativeBased.AUC.values() || again.NegativeBased.AUPR.values() != got.NegativeBased.AUPR.values() {
		t.Errorf("same seed, different output: %+v vs %+v", again, got)
	}
	other := runBoundsJSON(t, append(args, "--seed", "8", "--credible", "hpd")...)
	if other.AUC == got.AUC || other.Peek.Credible != "hpd" {
		t.Errorf("seed 8 and hpd: %+v", other)
	}
	out, _, err := runCLI(t, append([]string{"bounds", "--format", "table"}, args...)...)
	if err != nil || !strings.Contains(out, "negative-based auc") || !strings.Contains(out, "tighter aupr") || !strings.Contains(out, "peek                 30 positives, 70 negatives (equal-tailed, level 0.95)") {
		t.Errorf("table: %v\n%s", err, out)
	}
}

// --plot writes roc and pr in every format.
func TestBoundsPlot(t *testing.T) {
	in := writeFile(t, "fig1.csv", boundsFigure1)
	dir := filepath.Join(t.TempDir(), "plots")
	if _, _, err := runCLI(t, "bounds", "--input", in, "--beta-interval", "0.2,0.4", "--plot", dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"roc", "pr"} {
		for _, ext := range []string{"png", "pdf", "svg"} {
			if st, err := os.Stat(filepath.Join(dir, name+"."+ext)); err != nil || st.Size() == 0 {
				t.Errorf("%s.%s: %v", name, ext, err)
			}
		}
	}
}

// Errors name the flag, the file and the line, and start with "pueval:
// bounds:"; nothing is printed before them.
func TestBoundsErrors(t *testing.T) {
	in := writeFile(t, "fig1.csv", boundsFigure1)
	badLabel := writeFile(t, "bad.csv", "score,label\n0.5,1\n0.4,2\n")
	noPos := writeFile(t, "nopos.csv", "score,label\n0.5,0\n0.4,\n")
	allPos := writeFile(t, "allpos.csv", "score,label\n0.5,1\n0.4,1\n")
	notDir := writeFile(t, "file", "x")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--alpha", "0.3"}, "pueval: bounds: --input is required"},
		{[]string{"--input", in}, "pueval: bounds: give exactly one of --alpha A, --alpha-interval LO,HI, or --peek-positives N --peek-negatives M (alpha: the fraction of positives among the unlabeled; --beta and --beta-interval are aliases)"},
		{[]string{"--input", in, "--alpha", "0.3", "--alpha-interval", "0.1,0.2"}, "give exactly one of"},
		{[]string{"--input", in, "--beta", "0.3", "--alpha-interval", "0.1,0.2"}, "give exactly one of"},
		{[]string{"--input", in, "--alpha", "0.3", "--peek-positives", "3"}, "give exactly one of"},
		{[]string{"--input", in, "--alpha", "0.3", "--beta", "0.3"}, "pueval: bounds: give --alpha or its alias --beta, not both"},
		{[]string{"--input", in, "--alpha-interval", "0.1,0.3", "--beta-interval", "0.1,0.3"}, "pueval: bounds: give --alpha-interval or its alias --beta-interval, not both"},
		{[]string{"--input", in, "--peek-positives", "3"}, "pueval: bounds: give both --peek-positives and --peek-negatives"},
		{[]string{"--input", in, "--peek-positives", "-3", "--peek-negatives", "4"}, "--peek-positives -3 --peek-negatives 4: want counts >= 0"},
		{[]string{"--input", in, "--alpha", "1"}, `pueval: bounds: --alpha "1": want a fraction in [0, 1) (the positives among the unlabeled)`},
		{[]string{"--input", in, "--beta", "1"}, `pueval: bounds: --beta "1": want a fraction in [0, 1)`},
		{[]string{"--input", in, "--alpha", "x"}, `--alpha "x": want a fraction`},
		{[]string{"--input", in, "--alpha", "NaN"}, `--alpha "NaN": want a fraction`},
		{[]string{"--input", in, "--alpha-interval", "0.3"}, `pueval: bounds: --alpha-interval "0.3": want two numbers LO,HI, got 1`},
		{[]string{"--input", in, "--beta-interval", "0.2,0.5,0.6"}, `pueval: bounds: --beta-interval "0.2,0.5,0.6": want two numbers LO,HI, got 3`},
		{[]string{"--input", in, "--alpha-interval", "0.3,1.2"}, `pueval: bounds: --alpha-interval "0.3,1.2": "1.2" is not a fraction in [0, 1)`},
		{[]string{"--input", in, "--alpha-interval", "x,0.2"}, `--alpha-interval "x,0.2": "x" is not a fraction in [0, 1)`},
		{[]string{"--input", in, "--alpha-interval", "0.4,0.3"}, `--alpha-interval "0.4,0.3": LO is above HI`},
		{[]string{"--input", in, "--alpha", "0.3", "--band", "exact"}, `--band "exact": want bootstrap or dkw`},
		{[]string{"--input", in, "--alpha", "0.3", "--ties", "random"}, `--ties "random": want grouped or input-order`},
		{[]string{"--input", in, "--alpha", "0.3", "--credible", "shortest"}, `--credible "shortest": want equal-tailed or hpd`},
		{[]string{"--input", in, "--alpha", "0.3", "--format", "xml"}, `--format "xml": want json or table`},
		{[]string{"--input", in, "--alpha", "0.3", "--level", "1"}, "--level 1: want a confidence level in (0, 1)"},
		{[]string{"--input", in, "--alpha", "0.3", "--resamples", "0"}, "--resamples 0: want at least 1"},
		{[]string{"--input", in, "--alpha", "0.3", "--negatives", ""}, `pueval: bounds: --negatives "": want the label value that marks the known negatives (such as 0 or -1)`},
		{[]string{"--input", in, "--alpha", "0.3", "--negatives", "1.0"}, `pueval: bounds: --negatives "1.0": "1.0" reads as 1, the label of the labeled rows`},
		{[]string{"--input", in, "--alpha", "0.3", "extra"}, `pueval: bounds: unexpected argument "extra" (see 'pueval bounds -h')`},
		{[]string{"--input", in, "extra", "--alpha", "0.3"}, `pueval: bounds: unexpected argument "extra"`},
		{[]string{"--input", in + ".missing", "--alpha", "0.3"}, "fig1.csv.missing: no such file"},
		{[]string{"--input", badLabel, "--alpha", "0.3"}, `bad.csv:3: column "label": label "2" is not 0 or 1 (1: labeled; 0 or empty: unlabeled; also read: 1.0, 0.0, true, false); if "2" marks known negatives, pass --negatives 2`},
		{[]string{"--input", badLabel, "--alpha", "0.3", "--negatives", "0"}, `bad.csv:3: column "label": label "2" is not 1 (labeled), "0" (known negative), or -1 or empty (unlabeled)`},
		{[]string{"--input", noPos, "--alpha", "0.3"}, "nopos.csv: no known positive (label 1)"},
		{[]string{"--input", allPos, "--alpha", "0.3"}, "allpos.csv: every row is a known positive"},
		{[]string{"--input", in, "--alpha", "0.3", "--label", "known"}, `fig1.csv:1: no label column "known" in the header (columns: "score", "label"); name it with --label`},
		{[]string{"--input", in, "--alpha", "0.3", "--plot", filepath.Join(notDir, "sub")}, "pueval: bounds: --plot: "},
		{[]string{"--input", in, "--alpha", "0.3", "--nosuch"}, "pueval: bounds: flag provided but not defined: -nosuch"},
	} {
		out, _, err := runCLI(t, append([]string{"bounds"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "pueval: bounds: ") {
			t.Errorf("%v: error %v, want one starting with \"pueval: bounds: \" containing %q", c.args, err, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q before failing", c.args, out)
		}
	}
}

// -h says what alpha is, that --beta is Claesen et al.'s name for it, and
// how the labels read.
func TestBoundsHelp(t *testing.T) {
	out, _, err := runCLI(t, "bounds", "-h")
	for _, want := range []string{"fraction of positives among the unlabeled", "alias of --alpha: Claesen et al.'s name",
		"alias of --alpha-interval: Claesen et al.'s name", "0 or empty for the unlabeled rows", "--negatives V"} {
		if err != nil || !strings.Contains(out, want) {
			t.Errorf("help has no %q: %v\n%s", want, err, out)
		}
	}
}

// With PUEVAL_CLAESEN_DATA set (the shared Claesen et al. rankings), the
// covtype 5 % split written as a score file (label 1 for the known
// positives, empty for the rest): with --ties input-order --band dkw at the
// true beta the command gives the parity numbers of
// estimators/bounds/testdata/parity_golden.json (the independent reference
// implementation) to 1e-9; with the default bootstrap band and ties in input
// order, within 0.01 of the stored-band row; the PU AUC by positions.
func TestBoundsCovtype(t *testing.T) {
	dir := os.Getenv("PUEVAL_CLAESEN_DATA")
	if dir == "" {
		t.Skip("PUEVAL_CLAESEN_DATA is unset")
	}
	f, err := os.Open(filepath.Join(dir, "covtype_pu5_seed1.csv"))
	if err != nil {
		t.Fatalf("PUEVAL_CLAESEN_DATA is set but: %v", err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("score,label\n")
	for _, r := range rows[1:] { // score,true_label,known_positive
		b.WriteString(r[0] + ",")
		if r[2] == "1" {
			b.WriteString("1")
		}
		b.WriteString("\n")
	}
	in := writeFile(t, "covtype5.csv", b.String())
	beta := strconv.FormatFloat(19000.0/39000, 'g', -1, 64)

	// Rows of the golden file: covtype_pu5_seed1, factor 1, dkw and stored-float32.
	const dkwAUC0, dkwAUC1, dkwPR0, dkwPR1 = 0.6613480437499999, 0.8134754375000002, 0.6118214376403627, 0.8265604462157768
	const bootAUC0, bootAUC1, bootPR0, bootPR1 = 0.69687456, 0.7825152575000001, 0.6665860835445572, 0.794754092814151
	got := runBoundsJSON(t, "--input", in, "--beta", beta, "--ties", "input-order", "--band", "dkw")
	if got.N != 40000 || got.KnownPositives != 1000 || got.Unlabeled != 39000 {
		t.Errorf("counts %+v", got)
	}
	for _, c := range [][2]float64{{got.AUC.Lower, dkwAUC0}, {got.AUC.Upper, dkwAUC1}, {got.AUPR.Lower, dkwPR0}, {got.AUPR.Upper, dkwPR1}} {
		if math.Abs(c[0]-c[1]) > 1e-9 {
			t.Errorf("DKW: %v, reference %v", c[0], c[1])
		}
	}
	start := time.Now()
	got = runBoundsJSON(t, "--input", in, "--beta", beta, "--ties", "input-order")
	t.Logf("bootstrap run: %v", time.Since(start))
	for _, c := range [][2]float64{{got.AUC.Lower, bootAUC0}, {got.AUC.Upper, bootAUC1}, {got.AUPR.Lower, bootPR0}, {got.AUPR.Upper, bootPR1}} {
		if math.Abs(c[0]-c[1]) > 0.01 {
			t.Errorf("bootstrap: %v, stored band's %v", c[0], c[1])
		}
	}
	// The PU AUC by positions (ties in file order), counted from the file:
	// the (known positive, unlabeled) pairs in the right order.
	scores := make([]float64, len(rows)-1)
	for i, r := range rows[1:] {
		scores[i], _ = strconv.ParseFloat(r[0], 64)
	}
	order := make([]int, len(scores))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	var pairs, unlabeledBelow float64
	for _, i := range slices.Backward(order) {
		if rows[i+1][2] == "1" {
			pairs += unlabeledBelow
		} else {
			unlabeledBelow++
		}
	}
	if want := pairs / (1000 * 39000); math.Abs(got.PU.AUC-want) > 1e-12 {
		t.Errorf("PU AUC %v, by positions %v", got.PU.AUC, want)
	}
}

// One label convention: fed the file pueval correct takes (1 labeled, 0
// unlabeled), bounds reads its 0s as unlabeled, so alpha acts on them and
// the bounds differ from the PU numbers; before, it read them as known
// negatives and reported 0 unlabeled rows and lower = upper = PU. Known
// negatives need --negatives V, and a file left without unlabeled rows is
// refused.
func TestBoundsLabelConvention(t *testing.T) {
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	got := runBoundsJSON(t, "--input", in, "--alpha", "0.2", "--band", "dkw")
	if got.Unlabeled != 5 || got.KnownNegatives != 0 || got.KnownPositives != 3 || got.NegativeBased != nil {
		t.Errorf("counts %+v", got)
	}
	if got.AUC.Lower >= got.AUC.Upper || got.AUC.Upper == got.PU.AUC {
		t.Errorf("auc [%v, %v], pu %v: alpha did not act", got.AUC.Lower, got.AUC.Upper, got.PU.AUC)
	}
	_, _, err := runCLI(t, "bounds", "--input", in, "--alpha", "0.2", "--negatives", "0")
	if want := "pu.csv: no unlabeled row (--negatives 0 read the other 5 rows as known negatives): alpha, the fraction of positives among the unlabeled, has nothing to act on"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("all 0s as negatives: %v, want %q", err, want)
	}
	// The old convention (0 a known negative, empty or -1 unlabeled) is
	// --negatives 0, and any other marker gives the same bounds.
	var old, other strings.Builder
	old.WriteString("score,label\n")
	other.WriteString("score,label\n")
	for i := range 60 {
		l := []string{"1", "", "0", "-1", "", "1", "0", ""}[i%8]
		old.WriteString(strconv.Itoa(60-i) + "," + l + "\n")
		switch l {
		case "0":
			l = "neg" // the known negatives, marked otherwise
		case "-1":
			l = "0" // unlabeled, written as 0
		}
		other.WriteString(strconv.Itoa(60-i) + "," + l + "\n")
	}
	a := runBoundsJSON(t, "--input", writeFile(t, "old.csv", old.String()), "--alpha", "0.3", "--negatives", "0", "--band", "dkw")
	b := runBoundsJSON(t, "--input", writeFile(t, "other.csv", other.String()), "--alpha", "0.3", "--negatives", "NEG", "--band", "dkw")
	if a.KnownNegatives != 15 || a.Unlabeled != 30 || a.NegativeBased == nil || a.AUC != b.AUC || a.AUPR != b.AUPR ||
		*a.NegativeBased != *b.NegativeBased || b.KnownNegatives != 15 {
		t.Errorf("--negatives 0 %+v\n--negatives NEG %+v", a, b)
	}
}

// --beta and --beta-interval are aliases of --alpha and --alpha-interval:
// the same output, the source named by the canonical flag; the JSON's
// "alpha" object and the table's "alpha" row carry the value.
func TestBoundsAlphaAliases(t *testing.T) {
	in := writeFile(t, "fig1.csv", boundsFigure1)
	for _, c := range [][2][]string{
		{{"--alpha", "0.4"}, {"--beta", "0.4"}},
		{{"--alpha-interval", "0.2,0.4"}, {"--beta-interval", "0.2,0.4"}},
	} {
		for _, format := range []string{"json", "table"} {
			args := []string{"bounds", "--input", in, "--band", "dkw", "--format", format}
			want, _, err := runCLI(t, append(args, c[0]...)...)
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := runCLI(t, append(args, c[1]...)...)
			if err != nil || got != want {
				t.Errorf("%v: %v\n%s\nwant (%v)\n%s", c[1], err, got, c[0], want)
			}
			if format == "json" && (!strings.Contains(got, `"alpha": {`) || strings.Contains(got, `"beta"`) || !strings.Contains(got, `"source": "`+c[0][0]+`"`)) {
				t.Errorf("JSON of %v:\n%s", c[1], got)
			}
			if format == "table" && (!strings.Contains(got, "\nalpha  ") || !strings.Contains(got, "alpha_source     "+c[0][0])) {
				t.Errorf("table of %v:\n%s", c[1], got)
			}
		}
	}
}

// Over an alpha interval the bounds are the extremes over every alpha in
// it, not the lower curve at LO and the upper at HI: on a ranking with known
// negatives (5,000 rows, a third positive, scores N(1.9, 1) against N(0, 1),
// 300 known positives, 500 known negatives, true alpha 0.325), the upper AUC
// over [0.30, 0.97] is at least the upper AUC at alpha 0.55 alone, which
// lies inside the interval, and the output says where each bound lies. The
// published rule gave an upper bound (at 0.97) below the lower one (at
// 0.30), excluding the true AUC of 0.90.
func TestBoundsIntervalExtremes(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 3))
	var b strings.Builder
	b.WriteString("score,label\n")
	for i := range 5000 {
		s, label := rng.NormFloat64(), ""
		if i < 1667 {
			s += 1.9
		}
		switch {
		case i < 300:
			label = "1"
		case i >= 1667 && i < 2167:
			label = "-1"
		}
		fmt.Fprintf(&b, "%s,%s\n", strconv.FormatFloat(s, 'g', -1, 64), label)
	}
	in := filepath.Join(t.TempDir(), "s.csv")
	if err := os.WriteFile(in, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	common := []string{"--input", in, "--negatives", "-1", "--band", "dkw"}
	iv := runBoundsJSON(t, append(common, "--alpha-interval", "0.30,0.97")...)
	mid := runBoundsJSON(t, append(common, "--alpha", "0.55")...)
	lo := runBoundsJSON(t, append(common, "--alpha", "0.30")...)
	hi := runBoundsJSON(t, append(common, "--alpha", "0.97")...)
	if !(hi.AUC.Upper < lo.AUC.Lower) {
		t.Errorf("the ends: upper AUC at 0.97 %v, lower at 0.30 %v: the example does not show the published rule's failure", hi.AUC.Upper, lo.AUC.Lower)
	}
	if !(iv.AUC.Lower <= lo.AUC.Lower && iv.AUC.Lower <= hi.AUC.Lower && iv.AUC.Upper >= mid.AUC.Upper && iv.AUC.Upper > hi.AUC.Upper) {
		t.Errorf("over [0.30, 0.97] AUC [%v, %v]; at 0.30 [%v, %v], at 0.55 [%v, %v], at 0.97 [%v, %v]",
			iv.AUC.Lower, iv.AUC.Upper, lo.AUC.Lower, lo.AUC.Upper, mid.AUC.Lower, mid.AUC.Upper, hi.AUC.Lower, hi.AUC.Upper)
	}
	if at := iv.AUC.UpperAt; at == nil || !(*at > 0.30 && *at < 0.97) || iv.AUPR.LowerAt == nil {
		t.Errorf("upper AUC at %v, want an alpha inside (0.30, 0.97) reported", at)
	}
	if at := mid.AUC.UpperAt; at != nil {
		t.Errorf("a single alpha reports where the bounds lie: %v", *at)
	}
}

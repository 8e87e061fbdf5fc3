package cli

import (
	"encoding/csv"
	"encoding/json"
	"math"
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
// and the rest unlabeled (empty or -1).
const boundsFigure1 = "score,label\n9,1\n8,\n7,1\n6,-1\n5,\n4,1\n3,\n2,1\n1,\n"

type boundsJSON struct {
	N              int `json:"n"`
	KnownPositives int `json:"known_positives"`
	KnownNegatives int `json:"known_negatives"`
	Unlabeled      int
	Beta           struct {
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
	AUC, AUPR     struct{ Lower, Upper float64 }
	NegativeBased *struct {
		AUC, AUPR struct{ Lower, Upper float64 }
	} `json:"negative_based"`
	Tighter *struct {
		AUC, AUPR struct {
			Lower, Upper float64
			From         string
		}
	}
	Warnings []string
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
		got := runBoundsJSON(t, "--input", in, "--beta", "0.4", "--band", "dkw", "--ties", ties)
		if got.N != 9 || got.KnownPositives != 4 || got.KnownNegatives != 0 || got.Unlabeled != 5 ||
			got.Beta.Low != 0.4 || got.Beta.High != 0.4 || got.Beta.Source != "--beta" || got.Peek != nil ||
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
	args := []string{"--input", in, "--peek-positives", "30", "--peek-negatives", "70", "--resamples", "500", "--seed", "7"}
	got := runBoundsJSON(t, args...)
	if got.N != 300 || got.KnownPositives != 29 || got.KnownNegatives != 33 || got.Unlabeled != 238 {
		t.Errorf("counts %+v", got)
	}
	if got.Beta.Source != "peek" || got.Peek == nil || got.Peek.Positives != 30 || got.Peek.Negatives != 70 ||
		got.Peek.Credible != "equal-tailed" || got.Peek.Level != 0.95 || !(got.Beta.Low < 0.3 && 0.3 < got.Beta.High) {
		t.Errorf("beta %+v, peek %+v", got.Beta, got.Peek)
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
		{got.AUC, got.NegativeBased.AUC, struct{ Lower, Upper float64 }{got.Tighter.AUC.Lower, got.Tighter.AUC.Upper}, got.Tighter.AUC.From},
		{got.AUPR, got.NegativeBased.AUPR, struct{ Lower, Upper float64 }{got.Tighter.AUPR.Lower, got.Tighter.AUPR.Upper}, got.Tighter.AUPR.From},
	} {
		want, from := c.pos, "positives"
		if c.neg.Upper-c.neg.Lower < c.pos.Upper-c.pos.Lower {
			want, from = c.neg, "negatives"
		}
		if c.tight != want || c.from != from {
			t.Errorf("tighter %v from %s; positive-based %v, negative-based %v", c.tight, c.from, c.pos, c.neg)
		}
	}
	if again := runBoundsJSON(t, args...); again.AUC != got.AUC || again.AUPR != got.AUPR || *again.NegativeBased != *got.NegativeBased {
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
		{[]string{"--beta", "0.3"}, "pueval: bounds: --input is required"},
		{[]string{"--input", in}, "pueval: bounds: give exactly one of --beta B, --beta-interval LO,HI, or --peek-positives N --peek-negatives M"},
		{[]string{"--input", in, "--beta", "0.3", "--beta-interval", "0.1,0.2"}, "give exactly one of"},
		{[]string{"--input", in, "--beta", "0.3", "--peek-positives", "3"}, "give exactly one of"},
		{[]string{"--input", in, "--peek-positives", "3"}, "pueval: bounds: give both --peek-positives and --peek-negatives"},
		{[]string{"--input", in, "--peek-positives", "-3", "--peek-negatives", "4"}, "--peek-positives -3 --peek-negatives 4: want counts >= 0"},
		{[]string{"--input", in, "--beta", "1"}, `pueval: bounds: --beta "1": want a fraction in [0, 1) (the positives among the unlabeled)`},
		{[]string{"--input", in, "--beta", "x"}, `--beta "x": want a fraction`},
		{[]string{"--input", in, "--beta", "NaN"}, `--beta "NaN": want a fraction`},
		{[]string{"--input", in, "--beta-interval", "0.3"}, `--beta-interval "0.3": want LO,HI`},
		{[]string{"--input", in, "--beta-interval", "0.3,1.2"}, `--beta-interval "1.2": want a fraction`},
		{[]string{"--input", in, "--beta-interval", "0.4,0.3"}, `--beta-interval "0.4,0.3": LO is above HI`},
		{[]string{"--input", in, "--beta", "0.3", "--band", "exact"}, `--band "exact": want bootstrap or dkw`},
		{[]string{"--input", in, "--beta", "0.3", "--ties", "random"}, `--ties "random": want grouped or input-order`},
		{[]string{"--input", in, "--beta", "0.3", "--credible", "shortest"}, `--credible "shortest": want equal-tailed or hpd`},
		{[]string{"--input", in, "--beta", "0.3", "--format", "xml"}, `--format "xml": want json or table`},
		{[]string{"--input", in, "--beta", "0.3", "--level", "1"}, "--level 1: want a confidence level in (0, 1)"},
		{[]string{"--input", in, "--beta", "0.3", "--resamples", "0"}, "--resamples 0: want at least 1"},
		{[]string{"--input", in, "--beta", "0.3", "extra"}, `pueval: bounds: unexpected argument "extra" (see 'pueval bounds -h')`},
		{[]string{"--input", in, "extra", "--beta", "0.3"}, `pueval: bounds: unexpected argument "extra"`},
		{[]string{"--input", in + ".missing", "--beta", "0.3"}, "fig1.csv.missing: no such file"},
		{[]string{"--input", badLabel, "--beta", "0.3"}, `bad.csv:3: label "2" is not 1 (known positive), 0 (known negative), or -1 or empty (unlabeled)`},
		{[]string{"--input", noPos, "--beta", "0.3"}, "nopos.csv: no known positive (label 1)"},
		{[]string{"--input", allPos, "--beta", "0.3"}, "allpos.csv: every row is a known positive"},
		{[]string{"--input", in, "--beta", "0.3", "--plot", filepath.Join(notDir, "sub")}, "pueval: bounds: --plot: "},
		{[]string{"--input", in, "--beta", "0.3", "--nosuch"}, "pueval: bounds: flag provided but not defined: -nosuch"},
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

// -h says what beta is, and that it is the AAAI-2017 paper's alpha.
func TestBoundsHelp(t *testing.T) {
	out, _, err := runCLI(t, "bounds", "-h")
	if err != nil || !strings.Contains(out, "fraction of positives among the unlabeled") || !strings.Contains(out, "AAAI-2017 paper's alpha") {
		t.Errorf("help: %v\n%s", err, out)
	}
}

// /dev/zero (no line break, no end) is refused within a second.
func TestBoundsDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip(err)
	}
	start := time.Now()
	_, _, err := runCLI(t, "bounds", "--input", "/dev/zero", "--beta", "0.3")
	if err == nil || !strings.Contains(err.Error(), "/dev/zero:1: line longer than 1 MiB") {
		t.Errorf("error %v", err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("took %v", took)
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

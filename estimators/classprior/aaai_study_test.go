package classprior

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The study on real scores: AlphaMax-N variants on the cached bagged-net
// scores of the full AAAI-2017 reproduction (testdata/aaai2017-estudy.yaml),
// scored by the e column of the paper's Table 1: per row (data set, beta),
// the mean over the 50 repeats of |(beta-hat - alpha-hat) - (beta - alpha)|;
// per data set, the mean of its three rows.

// aaaiVariant is one column: the estimator ID in the study config (as:) and
// the options it sets there.
type aaaiVariant struct {
	id, label, options string
}

// aaaiVariants are the columns, in the order of the config.
var aaaiVariants = []aaaiVariant{
	{"blend", "blend", "the default"},
	{"concave-start", "c-start", "knee: concave-start"},
	{"fixed", "fixed", "knee: fixed"},
	{"published", "publ.", "knee: published"},
	{"blend-tau1", "tau1", "drop_tau: 1"},
	{"s4", "s4", "shifts: 4"},
	{"s4-tau1.5", "s4t1.5", "shifts: 4, drop_tau: 1.5"},
	{"s4-tau0.75", "s4t.75", "shifts: 4, drop_tau: 0.75"},
}

const (
	aaaiEstimates = "testdata/aaai2017-estimates.csv"
	// aaaiPaper is the paper's Table 1 as the report package embeds it.
	aaaiPaper = "../../papers/aaai2017/published/table1.csv"
	// aaaiNotComparable: the mirror has 8 of Gas's 10 batches, so its alpha
	// differs from the paper's (README).
	aaaiNotComparable = "gas"
)

// aaaiCell is one cell of the study: the true proportions and each variant's
// estimates (alpha, beta), in aaaiVariants order.
type aaaiCell struct {
	dataset, beta string // beta as the grid names it: "1", "0.95", "0.75"
	repeat        int
	alpha, betaT  float64
	est           [][2]float64
}

// aaaiFromRecords reads the cells of a records.jsonl of the study config.
func aaaiFromRecords(path string) ([]aaaiCell, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	type estimate struct{ Alpha, Beta float64 }
	var cells []aaaiCell
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for line := 1; sc.Scan(); line++ {
		var r struct {
			Dataset   string
			Grid      map[string]string
			Repeat    int
			Alpha     float64
			Beta      float64
			Status    string
			Estimates map[string]estimate
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		if r.Status != "ok" {
			return nil, fmt.Errorf("%s line %d: cell %s/%s/%d has status %q", path, line, r.Dataset, r.Grid["beta"], r.Repeat, r.Status)
		}
		c := aaaiCell{dataset: r.Dataset, beta: r.Grid["beta"], repeat: r.Repeat, alpha: r.Alpha, betaT: r.Beta}
		for _, v := range aaaiVariants {
			e, ok := r.Estimates[v.id]
			if !ok {
				return nil, fmt.Errorf("%s line %d: no estimate %q (run testdata/aaai2017-estudy.yaml)", path, line, v.id)
			}
			c.est = append(c.est, [2]float64{e.Alpha, e.Beta})
		}
		if len(r.Estimates) != len(aaaiVariants) {
			return nil, fmt.Errorf("%s line %d: %d estimates, the study has %d", path, line, len(r.Estimates), len(aaaiVariants))
		}
		cells = append(cells, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(cells, func(a, b aaaiCell) int {
		if c := strings.Compare(a.dataset, b.dataset); c != 0 {
			return c
		}
		if c := strings.Compare(a.beta, b.beta); c != 0 {
			return -c // 1, 0.95, 0.75 as the paper's rows
		}
		return a.repeat - b.repeat
	})
	return cells, nil
}

// aaaiDigits is the precision of the estimates in the CSV: far below the
// table's third decimal, and it keeps the file small.
const aaaiDigits = 7

func formatAAAICSV(cells []aaaiCell) string {
	var b strings.Builder
	b.WriteString("# AlphaMax-N estimates on the cached scores of the AAAI-2017 reproduction, one row per cell\n")
	b.WriteString("# (testdata/aaai2017-estudy.yaml; regenerate with TestAAAIStudy -update and PUEVAL_AAAI_RECORDS).\n")
	b.WriteString("dataset,beta_grid,repeat,alpha,beta")
	for _, v := range aaaiVariants {
		fmt.Fprintf(&b, ",%s_alpha,%s_beta", v.id, v.id)
	}
	b.WriteString("\n")
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', aaaiDigits, 64) }
	for _, c := range cells {
		fmt.Fprintf(&b, "%s,%s,%d,%s,%s", c.dataset, c.beta, c.repeat, g(c.alpha), g(c.betaT))
		for _, e := range c.est {
			fmt.Fprintf(&b, ",%s,%s", g(e[0]), g(e[1]))
		}
		b.WriteString("\n")
	}
	return b.String()
}

func parseAAAICSV(text string) ([]aaaiCell, error) {
	r := csv.NewReader(strings.NewReader(text))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) < 2 || len(rows[0]) != 5+2*len(aaaiVariants) {
		return nil, fmt.Errorf("%d rows, header %v: want a header of %d columns and cells", len(rows), rows[0], 5+2*len(aaaiVariants))
	}
	var cells []aaaiCell
	for i, row := range rows[1:] {
		nums := make([]float64, len(row)-3)
		for j, s := range row[3:] {
			if nums[j], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, fmt.Errorf("row %d: %w", i+2, err)
			}
		}
		rep, err := strconv.Atoi(row[2])
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+2, err)
		}
		c := aaaiCell{dataset: row[0], beta: row[1], repeat: rep, alpha: nums[0], betaT: nums[1]}
		for v := range aaaiVariants {
			c.est = append(c.est, [2]float64{nums[2+2*v], nums[3+2*v]})
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// paperE reads the paper's e per (data set, beta as the grid names it) from
// the published Table 1.
func paperE(path string) (map[[2]string]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(strings.NewReader(string(b)))
	r.Comment = '#'
	rows, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	col := slices.Index(rows[0], "e")
	if col < 0 || slices.Index(rows[0], "beta") != 2 {
		return nil, fmt.Errorf("%s: header %v: want beta third and an e column", path, rows[0])
	}
	out := map[[2]string]float64{}
	for _, row := range rows[1:] {
		beta, err := strconv.ParseFloat(row[2], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		e, err := strconv.ParseFloat(row[col], 64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out[[2]string{row[0], strconv.FormatFloat(beta, 'g', -1, 64)}] = e
	}
	return out, nil
}

// aaaiSummary is the table's content: per data set (sorted) the paper's e
// and each variant's e; per variant the count below the paper (the
// comparable data sets) and the mean over the data sets.
type aaaiSummary struct {
	datasets []string
	paper    map[string]float64
	e        map[string][]float64
	below    []int
	mean     []float64
	paperAvg float64
}

func summariseAAAI(cells []aaaiCell, paper map[[2]string]float64) (aaaiSummary, error) {
	type rowKey [2]string
	sums := map[rowKey][]float64{}
	counts := map[rowKey]int{}
	s := aaaiSummary{paper: map[string]float64{}, e: map[string][]float64{}}
	for _, c := range cells {
		k := rowKey{c.dataset, c.beta}
		if sums[k] == nil {
			sums[k] = make([]float64, len(aaaiVariants))
		}
		for v, e := range c.est {
			sums[k][v] += math.Abs((e[1] - e[0]) - (c.betaT - c.alpha))
		}
		counts[k]++
		if !slices.Contains(s.datasets, c.dataset) {
			s.datasets = append(s.datasets, c.dataset)
		}
	}
	slices.Sort(s.datasets)
	betas := []string{"1", "0.95", "0.75"}
	for _, d := range s.datasets {
		s.e[d] = make([]float64, len(aaaiVariants))
		for _, b := range betas {
			k := rowKey{d, b}
			p, ok := paper[k]
			if !ok || counts[k] == 0 {
				return s, fmt.Errorf("row %s beta %s: %d cells, paper row found %v", d, b, counts[k], ok)
			}
			s.paper[d] += p / float64(len(betas))
			for v := range aaaiVariants {
				s.e[d][v] += sums[k][v] / float64(counts[k]) / float64(len(betas))
			}
		}
	}
	s.below = make([]int, len(aaaiVariants))
	s.mean = make([]float64, len(aaaiVariants))
	for _, d := range s.datasets {
		s.paperAvg += s.paper[d] / float64(len(s.datasets))
		for v := range aaaiVariants {
			s.mean[v] += s.e[d][v] / float64(len(s.datasets))
			if d != aaaiNotComparable && s.e[d][v] < s.paper[d] {
				s.below[v]++
			}
		}
	}
	return s, nil
}

// aaaiTable formats the summary as the preformatted block of the package
// documentation; n_L per data set comes from nL.
func aaaiTable(s aaaiSummary, nL map[string]int) string {
	var b strings.Builder
	row := func(format string, a ...any) {
		b.WriteString("\t" + strings.TrimRight(fmt.Sprintf(format, a...), " ") + "\n")
	}
	head := fmt.Sprintf("%-10s %4s %6s |", "data set", "n_L", "paper")
	for _, v := range aaaiVariants {
		head += fmt.Sprintf(" %-7s", v.label)
	}
	row("%s", head)
	for _, d := range s.datasets {
		line := fmt.Sprintf("%-10s %4d %6.3f |", d, nL[d], s.paper[d])
		for v := range aaaiVariants {
			mark := " "
			if d != aaaiNotComparable && s.e[d][v] < s.paper[d] {
				mark = "*"
			}
			line += fmt.Sprintf(" %.3f%s ", s.e[d][v], mark)
		}
		row("%s", line)
	}
	line := fmt.Sprintf("%-22s |", "below the paper, of 11")
	for v := range aaaiVariants {
		line += fmt.Sprintf(" %5d  ", s.below[v])
	}
	row("%s", line)
	line = fmt.Sprintf("%-15s %6.3f |", "mean, 12 sets", s.paperAvg)
	for v := range aaaiVariants {
		line += fmt.Sprintf(" %.3f  ", s.mean[v])
	}
	row("%s", line)
	return b.String()
}

// aaaiNL is n_L per data set in the study config (protocol labeled: 1000,
// 100 for the four small data sets).
var aaaiNL = map[string]int{"bank": 1000, "concrete": 100, "gas": 1000, "housing": 100, "landsat": 1000,
	"mushroom": 1000, "pageblock": 100, "pendigit": 1000, "pima": 100, "shuttle": 1000, "spambase": 1000, "wine": 1000}

// TestAAAIStudy checks the table "Real scores" of the package documentation
// against the committed per-cell estimates (testdata/aaai2017-estimates.csv,
// from a run of testdata/aaai2017-estudy.yaml on the full reproduction's
// cached scores), and the claims the text makes of it. With
// PUEVAL_AAAI_RECORDS=records.jsonl it first checks the CSV against those
// records; -update rewrites the CSV (from the records) and the table.
func TestAAAIStudy(t *testing.T) {
	if path := os.Getenv("PUEVAL_AAAI_RECORDS"); path != "" {
		cells, err := aaaiFromRecords(path)
		if err != nil {
			t.Fatal(err)
		}
		text := formatAAAICSV(cells)
		old, err := os.ReadFile(aaaiEstimates)
		switch {
		case *update:
			if err := os.WriteFile(aaaiEstimates, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		case err != nil:
			t.Fatal(err)
		case string(old) != text:
			t.Errorf("%s differs from %s: regenerate it with -update", aaaiEstimates, path)
		}
	}
	text, err := os.ReadFile(aaaiEstimates)
	if err != nil {
		t.Fatal(err)
	}
	cells, err := parseAAAICSV(string(text))
	if err != nil {
		t.Fatalf("%s: %v", aaaiEstimates, err)
	}
	// 12 data sets x 3 betas x 50 repeats, as the paper.
	if len(cells) != 1800 {
		t.Fatalf("%s: %d cells, want 1800", aaaiEstimates, len(cells))
	}
	paper, err := paperE(aaaiPaper)
	if err != nil {
		t.Fatal(err)
	}
	s, err := summariseAAAI(cells, paper)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.datasets) != len(aaaiNL) {
		t.Fatalf("data sets %v, want the 12 of the paper", s.datasets)
	}
	table := aaaiTable(s, aaaiNL)

	// The claims of the documentation. The default is below the paper on 6
	// of the 11; no variant with the default drop tolerance or above reaches
	// 8; shifts: 4 lowers the mean e of the default; only drop_tau 0.75 with
	// shifts reaches 8, and it loses on the near-separable sets.
	col := func(id string) int {
		i := slices.IndexFunc(aaaiVariants, func(v aaaiVariant) bool { return v.id == id })
		if i < 0 {
			t.Fatalf("no variant %s", id)
		}
		return i
	}
	if got := s.below[col("blend")]; got != 6 {
		t.Errorf("default: below the paper on %d data sets, the documentation says 6", got)
	}
	for _, id := range []string{"blend", "concave-start", "fixed", "published", "s4", "blend-tau1", "s4-tau1.5"} {
		if s.below[col(id)] >= 8 {
			t.Errorf("%s: below the paper on %d data sets, the documentation says fewer than 8", id, s.below[col(id)])
		}
	}
	if !(s.mean[col("s4")] < s.mean[col("blend")]) {
		t.Errorf("shifts 4: mean e %.4f, not below the default's %.4f", s.mean[col("s4")], s.mean[col("blend")])
	}
	t75 := col("s4-tau0.75")
	if s.below[t75] != 8 {
		t.Errorf("shifts 4, drop_tau 0.75: below the paper on %d data sets, the documentation says 8", s.below[t75])
	}
	// Housing's margin at drop_tau 0.75 is within its standard error (the
	// documentation: about .004 over 150 cells).
	var hs []float64
	for _, c := range cells {
		if c.dataset == "housing" {
			e := c.est[t75]
			hs = append(hs, math.Abs((e[1]-e[0])-(c.betaT-c.alpha)))
		}
	}
	if se := stddev(hs) / math.Sqrt(float64(len(hs))); !(s.paper["housing"]-s.e["housing"][t75] < se && math.Abs(se-0.004) < 0.0006) {
		t.Errorf("housing at drop_tau 0.75: e %.4f, paper %.4f, standard error %.4f; the documentation says the margin is within an error of about .004", s.e["housing"][t75], s.paper["housing"], se)
	}
	for _, d := range []string{"mushroom", "shuttle", "pendigit"} {
		if !(s.e[d][t75] > s.e[d][col("s4")]) {
			t.Errorf("%s: drop_tau 0.75 e %.4f, not above drop_tau 2's %.4f", d, s.e[d][t75], s.e[d][col("s4")])
		}
	}

	checkDocTable(t, "data set ", table, "real-score table", "TestAAAIStudy")
}

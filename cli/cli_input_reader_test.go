package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/estimators/recovery"
	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/internal/scorefile"
)

// scoreCommands are the practitioner commands on a score file, with the
// flags they need besides --input (and fast settings).
var scoreCommands = [][]string{
	{"metrics"}, {"correct", "--alpha", "0.3", "--beta", "0.9"}, {"estimate"}, {"estimate", "--method", "all"},
	{"estimate", "--method", "distcurve"}, {"bounds", "--alpha", "0.3", "--band", "dkw"},
	{"evaluate", "--bootstrap", "0", "--bounds-resamples", "0", "--estimators", "alphamax-n"},
}

// columnsOf decodes the "columns" object of a command's JSON output.
func columnsOf(t *testing.T, out string) scorefile.Columns {
	t.Helper()
	var v struct{ Columns *scorefile.Columns }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Columns == nil {
		t.Fatalf("no columns (%v) in\n%s", err, out)
	}
	return *v.Columns
}

// A UTF-8 byte-order mark (as Excel writes) changes no command's output:
// before, evaluate read the header "\ufeffscore" as a feature and trained a
// net on it, and estimate --method all skipped the score methods.
func TestBOMEveryCommand(t *testing.T) {
	plain := puScoreFile(t, 120, 600)
	b, err := os.ReadFile(plain)
	if err != nil {
		t.Fatal(err)
	}
	boms := []string{
		writeFile(t, "bom.csv", "\ufeff"+string(b)),
		writeFile(t, "bom-comment.csv", "\ufeff# exported\n"+string(b)),
		writeFile(t, "bom-quoted.csv", "\ufeff\"score\",\"label\""+strings.TrimPrefix(string(b), "score,label")),
	}
	for _, args := range scoreCommands {
		want, _, err := runCLI(t, append(args, "--input", plain)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		for _, in := range boms {
			got, _, err := runCLI(t, append(args, "--input", in)...)
			if err != nil || got != want {
				t.Errorf("%v on %s: %v\n%s\nwant\n%s", args, filepath.Base(in), err, got, want)
			}
		}
	}
}

// A header that names a column twice (trimmed, case-insensitively) is
// refused by every command, naming the name and both positions: before,
// metrics read the last copy, evaluate the first, and a second label column
// became a KM feature.
func TestDuplicateColumnsEveryCommand(t *testing.T) {
	body := "0.9,1,0.1\n0.8,0,0.2\n0.7,1,0.3\n0.1,0,0.4\n"
	for _, c := range []struct{ head, want string }{
		{"score,label,score", `:1: columns 1 and 3 are both named "score"`},
		{"Score,label, score", `:1: columns 1 and 3 are both named "score"`},
		{"score,label,LABEL", `:1: columns 2 and 3 are both named "LABEL"`},
	} {
		in := writeFile(t, "dup.csv", c.head+"\n"+body)
		for _, args := range append(slices.Clone(scoreCommands), []string{"estimate", "--method", "km1"}, []string{"evaluate", "--classifier", "gbdt"}) {
			_, _, err := runCLI(t, append(args, "--input", in)...)
			if err == nil || !strings.Contains(err.Error(), in+c.want) {
				t.Errorf("%v on %q: error %v, want %q", args, c.head, err, c.want)
			}
		}
	}
}

// Every command says which column it read as what: in the JSON's
// "columns" and in the table's "columns" row.
func TestColumnsReported(t *testing.T) {
	in := writeFile(t, "s.csv", "id,score,label\n"+strings.Join([]string{"a,0.9,1", "b,0.8,0", "c,0.7,1", "d,0.1,0", "e,0.3,0", "f,0.95,1", "g,0.2,0", "h,0.6,0"}, "\n")+"\n")
	for _, args := range [][]string{{"metrics"}, {"correct", "--alpha", "0.2", "--beta", "1"}, {"bounds", "--alpha", "0.3", "--band", "dkw"}} {
		out, _, err := runCLI(t, append(args, "--input", in)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if c := columnsOf(t, out); c.Label != "label" || c.Score != "score" || !slices.Equal(c.Ignored, []string{"id"}) || len(c.Features) != 0 {
			t.Errorf("%v: columns %+v", args, c)
		}
		table, _, err := runCLI(t, append(args, "--input", in, "--format", "table")...)
		first, _, _ := strings.Cut(table, "\n")
		if want := `label "label"; score "score"; ignored "id"`; err != nil || !strings.HasPrefix(first, "columns ") || !strings.HasSuffix(first, want) {
			t.Errorf("%v: the first row is not columns ... %q: %v\n%s", args, want, err, table)
		}
	}
}

// idScoreFile is a score file (puScoreFile's rows) with an id column
// first: the row number.
func idScoreFile(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(puScoreFile(t, 300, 2000))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = "id," + lines[i]
		} else {
			lines[i] = fmt.Sprint(i) + "," + lines[i]
		}
	}
	return writeFile(t, "id.csv", strings.Join(lines, "\n")+"\n")
}

// A score file's other columns are not features: estimate --method all and
// evaluate ignore its id (before, KM1 and KM2 ran on it and gave alpha
// 0.589 for a true 0.3) and say so; --feature-columns makes a column a
// feature, with a warning when it looks like an identifier.
func TestScoreFileExtraColumnsIgnored(t *testing.T) {
	in := idScoreFile(t)
	out, _, err := runCLI(t, "estimate", "--method", "all", "--input", in)
	if err != nil {
		t.Fatal(err)
	}
	var rep estimateAllReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var methods []string
	for _, m := range rep.Methods {
		methods = append(methods, m.Method)
	}
	if !slices.Equal(methods, evaluate.Applicable(false)) || !slices.Equal(rep.Columns.Ignored, []string{"id"}) ||
		rep.Columns.Score != "score" || len(rep.Columns.Features) != 0 || len(rep.Warnings) != 0 {
		t.Errorf("methods %v, columns %+v, warnings %q", methods, rep.Columns, rep.Warnings)
	}
	out, _, err = runCLI(t, "evaluate", "--input", in, "--bootstrap", "0", "--bounds-resamples", "0", "--estimators", "alphamax-n")
	if err != nil {
		t.Fatal(err)
	}
	res := decodeEvaluate(t, out)
	if c := columnsOf(t, out); res.Scores.Source != "given" || !slices.Equal(c.Ignored, []string{"id"}) || c.Score != "score" || len(c.Features) != 0 {
		t.Errorf("scores %s, columns %+v", res.Scores.Source, c)
	}
	// Named as a feature, the id is read, and flagged.
	out, _, err = runCLI(t, "estimate", "--method", "all", "--input", in, "--feature-columns", "id", "--km-max-rows", "200")
	if err != nil {
		t.Fatal(err)
	}
	rep = estimateAllReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	want := `feature column "id" holds integers in steps of 1 in file order (a row number?): ` + suspectHint
	if !slices.Equal(rep.Columns.Features, []string{"id"}) || len(rep.Methods) != len(evaluate.Applicable(true)) || !slices.Equal(rep.Warnings, []string{want}) {
		t.Errorf("columns %+v, %d methods, warnings %q", rep.Columns, len(rep.Methods), rep.Warnings)
	}
}

// Feature columns that look like identifiers are warned about where
// features are read: km1 (in its warnings) and evaluate (a warning with
// its code); real features are not.
func TestSuspectFeatureWarnings(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	b.WriteString("row,x1,x2,label\n")
	for i := range 300 {
		pos := i%3 == 0
		lab := pos && i%2 == 0
		shift := map[bool]float64{true: 2}[pos]
		fmt.Fprintf(&b, "%d,%.6f,%.6f,%d\n", 1000+i, rng.NormFloat64()+shift, rng.NormFloat64()+shift, b2i(lab))
	}
	in := writeFile(t, "rows.csv", b.String())
	want := `feature column "row" holds integers in steps of 1 in file order (a row number?): ` + suspectHint
	out, _, err := runCLI(t, "estimate", "--method", "km2", "--input", in)
	if err != nil {
		t.Fatal(err)
	}
	var rep estimateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(rep.Warnings, want) || !slices.Equal(rep.Columns.Features, []string{"row", "x1", "x2"}) {
		t.Errorf("warnings %q, columns %+v", rep.Warnings, rep.Columns)
	}
	out, _, err = runCLI(t, "evaluate", "--input", in, "--classifier", "gbdt", "--bootstrap", "0", "--bounds-resamples", "0", "--estimators", "alphamax-n")
	if err != nil {
		t.Fatal(err)
	}
	res := decodeEvaluate(t, out)
	if !slices.Contains(res.Warnings, evaluate.Warning{Code: warnSuspectFeature, Message: want}) {
		t.Errorf("warnings %+v", res.Warnings)
	}
	// Left out with --ignore: no warning.
	out, _, err = runCLI(t, "estimate", "--method", "km2", "--input", in, "--ignore", "row")
	if err != nil {
		t.Fatal(err)
	}
	rep = estimateReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || slices.Contains(rep.Warnings, want) || !slices.Equal(rep.Columns.Ignored, []string{"row"}) {
		t.Errorf("with --ignore row: %v, warnings %q, columns %+v", err, rep.Warnings, rep.Columns)
	}
}

// A file with one column besides the label, not named score, is refused
// rather than guessed at (before, evaluate trained a net on a score column
// named otherwise); the flags that say what it is are honoured.
func TestAmbiguousColumnRefused(t *testing.T) {
	b, err := os.ReadFile(puScoreFile(t, 100, 400))
	if err != nil {
		t.Fatal(err)
	}
	in := writeFile(t, "prob.csv", "prob"+strings.TrimPrefix(string(b), "score"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"evaluate"}, `prob.csv: one column besides the label, "prob", and it is not the score column "score": pass --score prob to read it as held-out scores, or --classifier to train on it as a feature`},
		{[]string{"estimate", "--method", "all"}, `prob.csv: one column besides the label, "prob", and it is not the score column "score": pass --score prob to read it as scores, or --feature-columns prob to read it as km1's and km2's feature`},
		{[]string{"evaluate", "--score", "prob", "--classifier", "gbdt"}, "give --score (read held-out scores) or --classifier (train on the features), not both"},
		{[]string{"metrics"}, `prob.csv:1: no score column "score" in the header (columns: "prob", "label"); name it with --score`},
		{[]string{"estimate", "--method", "all", "--score", "prob", "--km-max-rows", "100"}, `--km-max-rows: km1 and km2 do not run on ` + in + `: it has a score column "prob", and its other columns are features only where --feature-columns names them`},
	} {
		_, _, err := runCLI(t, append(c.args, "--input", in)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
	fast := []string{"--bootstrap", "0", "--bounds-resamples", "0", "--estimators", "alphamax-n", "--input", in}
	out, _, err := runCLI(t, append([]string{"evaluate", "--score", "prob"}, fast...)...)
	if err != nil {
		t.Fatal(err)
	}
	if res, c := decodeEvaluate(t, out), columnsOf(t, out); res.Scores.Source != "given" || c.Score != "prob" {
		t.Errorf("--score prob: scores %s, columns %+v", res.Scores.Source, c)
	}
	out, _, err = runCLI(t, append([]string{"evaluate", "--classifier", "gbdt"}, fast...)...)
	if err != nil {
		t.Fatal(err)
	}
	if res, c := decodeEvaluate(t, out), columnsOf(t, out); res.Scores.Source != "trained" || !slices.Equal(c.Features, []string{"prob"}) {
		t.Errorf("--classifier gbdt: scores %s, columns %+v", res.Scores.Source, c)
	}
	for _, args := range [][]string{{"--score", "prob"}, {"--feature-columns", "prob", "--km-max-rows", "100"}} {
		out, _, err := runCLI(t, append([]string{"estimate", "--method", "all", "--input", in}, args...)...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var rep estimateAllReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		reads := map[string]bool{}
		for _, m := range rep.Methods {
			reads[m.Reads] = true
		}
		if scores := args[0] == "--score"; reads["scores"] != scores || reads["features"] == scores {
			t.Errorf("%v: the methods read %v", args, reads)
		}
	}
	// Every score command takes the column's name.
	for _, args := range [][]string{{"metrics"}, {"correct", "--alpha", "0.3", "--beta", "0.9"}, {"estimate"}, {"bounds", "--alpha", "0.3", "--band", "dkw"}} {
		if _, _, err := runCLI(t, append(args, "--input", in, "--score", "prob")...); err != nil {
			t.Errorf("%v --score prob: %v", args, err)
		}
	}
}

// estimate refuses what it would ignore or overwrite: a flag the method
// does not read (naming the methods that do), --curve for a method without
// a curve, and a --curve file that is the input; --method's error lists
// all. --label is read by every method.
func TestEstimateMethodFlags(t *testing.T) {
	in, _ := puFile(t)
	before, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	same := filepath.Join(filepath.Dir(in), ".", filepath.Base(in))
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "distcurve", "--curve", "c.csv"}, "--curve: --method distcurve does not read it (only alphamax, alphamax-n do)"},
		{[]string{"--method", "all", "--curve", "c.csv"}, "--curve: --method all does not read it (only alphamax, alphamax-n do)"},
		{[]string{"--method", "alphamax", "--ignore", "id"}, "--ignore: --method alphamax does not read it (only km1, km2, all do)"},
		{[]string{"--method", "alphamax-n", "--feature-columns", "x"}, "--feature-columns: --method alphamax-n does not read it (only km1, km2, all do)"},
		{[]string{"--method", "km1", "--knee", "fixed"}, "--knee: --method km1 does not read it (only alphamax, alphamax-n do)"},
		{[]string{"--method", "alphamax", "--features", "raw"}, "--features: --method alphamax does not read it (only km1, km2 do)"},
		{[]string{"--method", "distcurve", "--km-max-rows", "50"}, "--km-max-rows: --method distcurve does not read it (only km1, km2, all do)"},
		{[]string{"--method", "km2", "--score", "s"}, "--score: --method km2 does not read it (only alphamax, alphamax-n, distcurve, all do)"},
		{[]string{"--method", "alphamax", "--seed", "3"}, "--seed: --method alphamax does not read it (only distcurve, km1, km2, all do)"},
		{[]string{"--method", "km1", "--km-max-rows", "5"}, "--km-max-rows 5: want at least 20"},
		{[]string{"--curve", in}, "--curve " + in + ": that is the input file (--input " + in + "): writing it would overwrite the data"},
		{[]string{"--curve", same}, "--curve " + same + ": that is the input file"},
		{[]string{"--method", "kde"}, `--method "kde": want alphamax, alphamax-n, distcurve, km1, km2 or all`},
	} {
		out, _, err := runCLI(t, append([]string{"estimate", "--input", in}, c.args...)...)
		if err == nil || err.Error() != "pueval: estimate: "+c.want && !strings.HasPrefix(err.Error(), "pueval: estimate: "+c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
		if out != "" {
			t.Errorf("%v: printed %q", c.args, out)
		}
	}
	if after, err := os.ReadFile(in); err != nil || string(after) != string(before) {
		t.Errorf("the input changed: %v", err)
	}
	// --label names the label column for every method.
	relabeled := writeFile(t, "l.csv", strings.Replace(string(before), "score,label", "score,is_labeled", 1))
	for _, m := range []string{"alphamax", "alphamax-n", "distcurve", "all"} {
		want, _, err := runCLI(t, "estimate", "--method", m, "--input", in)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := runCLI(t, "estimate", "--method", m, "--input", relabeled, "--label", "is_labeled")
		if err != nil || strings.Replace(got, `"label": "is_labeled"`, `"label": "label"`, 1) != want {
			t.Errorf("%s --label is_labeled: %v\n%s\nwant\n%s", m, err, got, want)
		}
	}
}

// kmFile is a feature CSV of n rows for km1 and km2: two Gaussian
// features, a third of the rows positive, half of those labeled.
func kmFile(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 9))
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for i := range n {
		pos := i%3 == 0
		shift := map[bool]float64{true: 2.5}[pos]
		fmt.Fprintf(&b, "%.5f,%.5f,%d\n", rng.NormFloat64()+shift, rng.NormFloat64()+shift, b2i(pos && i%2 == 0))
	}
	return writeFile(t, "km.csv", b.String())
}

// estimate --method km1|km2 reads every row by default (as the published
// code), up to 100,000; --km-max-rows N reads a random subsample of N rows
// with L and U in their proportions, the same for the same --seed.
func TestEstimateKMMaxRows(t *testing.T) {
	in := kmFile(t, 600)
	decode := func(out string) estimateReport {
		var rep estimateReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		return rep
	}
	out, _, err := runCLI(t, "estimate", "--method", "km1", "--input", in)
	if err != nil {
		t.Fatal(err)
	}
	// Row i is labeled when i % 6 == 0: 100 of 600.
	if rep := decode(out); rep.NLabeled != 100 || rep.NUnlabeled != 500 {
		t.Errorf("every row: %d labeled, %d unlabeled", rep.NLabeled, rep.NUnlabeled)
	}
	args := []string{"estimate", "--method", "km1", "--input", in, "--km-max-rows", "120", "--seed", "4"}
	out, _, err = runCLI(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	// 120 rows in the proportions 100:500: 20 labeled, 100 unlabeled.
	if rep := decode(out); rep.NLabeled != 20 || rep.NUnlabeled != 100 {
		t.Errorf("--km-max-rows 120: %d labeled, %d unlabeled", rep.NLabeled, rep.NUnlabeled)
	}
	if again, _, _ := runCLI(t, args...); again != out {
		t.Error("the same seed gave another output")
	}
	table, _, err := runCLI(t, append(args, "--format", "table")...)
	if err != nil || !strings.Contains(table, "a random subsample of 120 of the 600 rows (seed 4)") {
		t.Errorf("table: %v\n%s", err, table)
	}
	// Past 100,000 rows without --km-max-rows: refused with the flag to pass.
	var b strings.Builder
	b.WriteString("x,label\n")
	for i := range maxKMRows + 1 {
		fmt.Fprintf(&b, "%d.5,%d\n", i%97, b2i(i%5 == 0))
	}
	big := writeFile(t, "big.csv", b.String())
	_, _, err = runCLI(t, "estimate", "--method", "km2", "--input", big)
	if want := big + ":100002: more than 100000 data rows: KM's kernel matrix is dense (n x n): pass --km-max-rows N to read a random subsample of N rows"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
	out, _, err = runCLI(t, "estimate", "--method", "km2", "--input", big, "--km-max-rows", "60")
	if err != nil {
		t.Fatal(err)
	}
	if rep := decode(out); rep.NLabeled+rep.NUnlabeled != 60 {
		t.Errorf("--km-max-rows 60 on %d rows: %d + %d", maxKMRows+1, rep.NLabeled, rep.NUnlabeled)
	}
}

// --bootstrap is bounded where the resamples are kept: a billion is
// refused before anything is allocated, naming the limit, by correct,
// evaluate and the evaluate package (before, the runtime died of running
// out of memory).
func TestBootstrapBounded(t *testing.T) {
	in := writeFile(t, "pu.csv", aaaiFigure1PU)
	for _, args := range [][]string{
		{"correct", "--alpha", "0.2", "--beta", "1", "--bootstrap", "1000000000"},
		{"evaluate", "--bootstrap", "1000000000"},
	} {
		_, _, err := runCLI(t, append(args, "--input", in)...)
		if want := "--bootstrap 1000000000: want 0 (no intervals) or a number of resamples up to 100000"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", args[0], err, want)
		}
		help, _, _ := runCLI(t, args[0], "-h")
		if !strings.Contains(help, "at most 100000") {
			t.Errorf("%s -h does not state the limit", args[0])
		}
	}
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05}
	labeled := []bool{true, false, true, false, true, false, false, false, false, false}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := evaluate.BootstrapScores(context.Background(), scores, labeled, "", 0.2, 1, 1_000_000_000, 0.95, recovery.Drop, 1, 1)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "bootstrap 1000000000: want 1 to 100000 resamples") {
		t.Errorf("BootstrapScores: %v", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("BootstrapScores allocated %d bytes before refusing", alloc)
	}
	if _, err := evaluate.Run(context.Background(), evaluate.Input{Scores: scores, Labeled: labeled}, evaluate.Options{Bootstrap: evaluate.MaxBootstrap + 1}); err == nil ||
		!strings.Contains(err.Error(), "bootstrap 100001: want 0 (none) or a number of resamples up to 100000") {
		t.Errorf("Run: %v", err)
	}
}

package pueval

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pueval/pueval"

// bannedRand is math/rand v1, spelled in two parts so that text searches for
// its import path (the before-stop hook's) do not match this test itself.
const bannedRand = "math/" + "rand"

// allowedImports lists, for every package of the module (path relative to the
// module root), the module-internal packages it may depend on, directly or
// transitively (DESIGN.md section 2). "*" allows everything. A package missing
// from this table fails the test: add it here when you create it.
var allowedImports = map[string][]string{
	"":                           {},
	"classifiers":                {"classifiers/nnet", "classifiers/gbdt", "classifiers/svm"},
	"classifiers/gbdt":           {},
	"classifiers/kernelauc":      {},
	"classifiers/nnet":           {},
	"classifiers/svm":            {},
	"cmd/pueval":                 {"*"},
	"configs":                    {},
	"datasets":                   {},
	"datasets/gmm":               {},
	"datasets/pusplit":           {},
	"datasets/synth":             {},
	"estimators/classprior":      {"estimators/kmpe", "estimators/distcurve"},
	"estimators/distcurve":       {},
	"estimators/distcurve/train": {"estimators/distcurve"},
	"estimators/kmpe":            {},
	"estimators/bounds":          {},
	"estimators/recovery":        {"metrics"},
	// The practitioner's evaluation: classifier, estimators, recovery and bounds together.
	"evaluate": {"classifiers", "classifiers/nnet", "classifiers/gbdt", "classifiers/svm", "estimators/classprior",
		"estimators/kmpe", "estimators/distcurve", "estimators/bounds", "estimators/recovery", "metrics"},
	// Its HTML page, drawn with the report core's figures and page.
	"evaluate/page": {"evaluate", "report", "experiments/results", "classifiers", "classifiers/nnet", "classifiers/gbdt",
		"classifiers/svm", "estimators/classprior", "estimators/kmpe", "estimators/distcurve", "estimators/bounds",
		"estimators/recovery", "metrics"},
	"examples/toypaper":   {"*"}, // a paper's plug-ins: they build on experiments and report
	"experiments":         {"*"},
	"experiments/results": {},
	"internal/scorefile":  {},
	"internal/portmath":   {}, // a leaf every package may import (TestImportRules), like package math
	"internal/linalg":     {}, // likewise: dense linear algebra in a fixed order (the same bits on every CPU)
	"internal/goldenbits": {}, // the golden tests' bit hash (test imports only)
	"internal/slurm":      {},
	"metrics":             {},
	"report":              {"experiments/results", "metrics", "estimators/recovery"},
	"report/aaai2017":     {"report", "experiments/results", "metrics", "estimators/recovery"},
	"report/aul":          {"report", "experiments/results", "metrics", "estimators/recovery"},
	"report/claesen2015":  {"report", "experiments/results", "metrics", "estimators/recovery"},
	"report/psb2019":      {"report", "experiments/results", "metrics", "estimators/recovery"},
	"report/pulp":         {"report", "experiments/results", "metrics", "estimators/recovery"},

	// Headless Chromium for the report test and the screenshots: no pueval package imports them.
	"internal/browser":             {},
	"internal/browser/browsertest": {"internal/browser"},
	"internal/browser/shoot":       {"internal/browser"},
}

func goList(t *testing.T, format string) [][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", format, "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		rows = append(rows, strings.Split(line, "|"))
	}
	return rows
}

func rel(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
}

func TestImportRules(t *testing.T) {
	for _, row := range goList(t, `{{.ImportPath}}|{{join .Deps " "}}`) {
		pkg := rel(row[0])
		allowed, ok := allowedImports[pkg]
		if !ok {
			t.Errorf("package %q is not in allowedImports (arch_test.go): add it with its allowed imports from DESIGN.md section 2", pkg)
			continue
		}
		if slices.Contains(allowed, "*") {
			continue
		}
		for _, dep := range strings.Fields(row[1]) {
			if !strings.HasPrefix(dep, module+"/") {
				continue
			}
			if d := rel(dep); d != "internal/portmath" && d != "internal/linalg" && !slices.Contains(allowed, d) {
				t.Errorf("%s depends on %s; DESIGN.md section 2 allows only %v", pkg, d, allowed)
			}
		}
	}
}

// TestNoMathRandV1 bans math/rand (v1): no package of the module, nor its
// tests, imports it. Every random stream is a math/rand/v2 source passed
// explicitly. (Third-party code may use it internally - gonum/plot's PDF
// writer does - which cannot affect our streams.)
func TestNoMathRandV1(t *testing.T) {
	for _, row := range goList(t, `{{.ImportPath}}|{{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`) {
		if slices.Contains(strings.Fields(row[1]), bannedRand) {
			t.Errorf("%s imports or depends on math/rand (v1); use math/rand/v2 with an explicit source", row[0])
		}
	}
}

// paperPlugins are the files and directories where a paper's name may
// appear in experiments/ and report/: its own plug-ins.
var paperPlugins = []string{
	"experiments/protocol_aaai2017.go", "experiments/protocol_psb2019.go", "experiments/protocol_claesen2015.go",
	"report/aaai2017/", "report/psb2019/", "report/claesen2015/", "report/aul/",
}

// TestNoPaperNamesInCore: outside the papers' own plug-in files (and tests),
// experiments/ and report/ name no paper: the core has no switch a new paper
// would have to edit (issue 13).
func TestNoPaperNamesInCore(t *testing.T) {
	paper := regexp.MustCompile(`(?i)aaai2017|psb2019|claesen2015`)
	for _, root := range []string{"experiments", "report"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			slashed := filepath.ToSlash(path)
			for _, p := range paperPlugins {
				if slashed == p || (strings.HasSuffix(p, "/") && strings.HasPrefix(slashed, p)) {
					return nil
				}
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				if paper.MatchString(line) {
					t.Errorf("%s:%d names a paper outside its plug-in: %s", slashed, i+1, strings.TrimSpace(line))
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// portablePackages compute with the same bits on every CPU and
// architecture (the golden-hash tests TestGoldenBits of each, which
// `make test-cross` runs under qemu-aarch64 and emulated amd64 CPUs;
// internal/linalg's through those of kernelauc and gmm).
// On arm64 (and riscv64, ppc64, s390x, and amd64 with GOAMD64=v3) the Go
// compiler may fuse a*b + c into one multiply-add with a single rounding
// unless the product is converted explicitly (float64(a*b) + c): that
// alone changes results in the last bit.
var portablePackages = []string{"internal/portmath", "internal/linalg", "classifiers/gbdt", "estimators/kmpe", "estimators/distcurve", "classifiers/kernelauc",
	"classifiers/svm", "datasets/gmm", "estimators/bounds"}

// recordPackages compute the other numbers of a run's records (AlphaMax,
// the recovery formulas, the metrics, the data encodings,
// the runner's measures): no fused multiply-adds
// either. Their bits on every CPU are checked end to end by
// cmd/pueval's TestGoldenRecords (the smoke configs' records), which
// `make test-cross` runs under qemu-aarch64. classifiers/nnet is in
// neither list: its float32x16 numerics use math.FMA where they mean a
// fused multiply-add, and its kernels have their own cross tests.
var recordPackages = []string{"estimators/classprior", "estimators/recovery", "metrics", "datasets",
	"datasets/synth", "evaluate", "experiments", "classifiers"}

// reportPackages write the tables and claims of the reports: no fused
// multiply-adds in their numbers, checked end to end by TestGoldenRecords,
// which also hashes the smoke reports' tables. Figures are not promised the
// same bits: gonum/plot and the image and PDF writers beneath it fuse
// multiply-adds of their own on arm64. So the report packages' drawing
// files (reportDrawingFiles), and library code the compiler inlines into a
// report function, are not checked.
var reportPackages = []string{"report", "report/aaai2017", "report/psb2019", "report/claesen2015", "report/aul", "report/pulp"}

// reportDrawingFiles are files of the report package that only place marks
// on a figure (bar offsets, heat-map cells, box geometry, tick spacing).
var reportDrawingFiles = []string{"charts.go", "heat.go", "plot.go"}

// TestNoFusedMultiplyAddOnArm64 cross-compiles the command for arm64 and
// disassembles it: no function of a portable or record package may contain
// a fused multiply-add (FMADD, FMSUB, FNMADD, FNMSUB). Inlined code is listed
// under its caller, so a portable package's code inlined into another
// package escapes this check; its golden test still sees it.
func TestNoFusedMultiplyAddOnArm64(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles the command: skipped with -short")
	}
	bin := filepath.Join(t.TempDir(), "pueval-arm64")
	build := exec.Command("go", "build", "-o", bin, "./cmd/pueval")
	build.Env = append(os.Environ(), "GOARCH=arm64", "GOOS=linux", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build for arm64: %v\n%s", err, out)
	}
	out, err := exec.Command("go", "tool", "objdump", bin).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	checked := slices.Concat(portablePackages, recordPackages, reportPackages)
	fused := regexp.MustCompile(`\t(FMADDD|FMSUBD|FNMADDD|FNMSUBD|FMADDS|FMSUBS|FNMADDS|FNMSUBS) `)
	// exempt says whether a fused instruction of package p, from source file
	// file (objdump names its base), is drawing code or a library's inlined
	// into a report package.
	exempt := func(p, file string) bool {
		if !slices.Contains(reportPackages, p) {
			return false
		}
		if p == "report" && slices.Contains(reportDrawingFiles, file) {
			return true
		}
		_, err := os.Stat(filepath.Join(filepath.FromSlash(p), file))
		return err != nil
	}
	var fn string
	seen := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "TEXT "); ok {
			fn = strings.Fields(rest)[0]
			continue
		}
		if !fused.MatchString(line) {
			continue
		}
		file, _, _ := strings.Cut(strings.Fields(line)[0], ":")
		for _, p := range checked {
			if strings.HasPrefix(fn, module+"/"+p+".") && !exempt(p, file) {
				seen[p]++
				if seen[p] <= 5 {
					t.Errorf("%s: fused multiply-add at %s: round the product with float64()", fn, strings.Fields(line)[0])
				}
			}
		}
	}
	for _, p := range checked {
		if !strings.Contains(string(out), "TEXT "+module+"/"+p+".") {
			t.Errorf("no function of %s in the arm64 binary: the check would see nothing", p)
		}
	}
}

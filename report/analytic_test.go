package report

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// PSB-2019 Figure 1 caption: acc 0.86 at 0.42 vs PU 0.90 at 5; bacc 0.84 / 0.67 at 0;
// F 0.77 at 0.19 vs 0.30 at 0.50; MCC 0.66 / 0.22 at 0.29.
func TestPSBFigure1MatchesCaption(t *testing.T) {
	dir := t.TempDir()
	files, notes, err := WriteAnalyticFigure("psb2019-fig1", dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 || len(notes) != 1 || !strings.Contains(notes[0], "agree") {
		t.Fatalf("files %v notes %v", files, notes)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "fig1.json"))
	var s map[string]map[string]struct{ Max, Threshold float64 }
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for k, want := range psbCaption {
		for i, setting := range []string{"traditional", "pu"} {
			got := s[k][setting]
			if math.Abs(got.Max-want[i][0]) > 0.005 || math.Abs(got.Threshold-want[i][1]) > 1e-9 {
				t.Errorf("%s %s: %+v, caption %v", k, setting, got, want[i])
			}
		}
	}
}

func TestAnalyticFiguresRender(t *testing.T) {
	dir := os.Getenv("PUEVAL_FIGURE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	for _, f := range AnalyticFigures {
		files, notes, err := WriteAnalyticFigure(f.Name, dir)
		if err != nil || len(files) < 3 {
			t.Errorf("%s: %v %v", f.Name, files, err)
		}
		if f.Name == "aaai2017-fig4" && (len(notes) != 1 || !strings.Contains(notes[0], "0.70")) {
			t.Errorf("fig4 note %v", notes)
		}
	}
	if _, _, err := WriteAnalyticFigure("nope", dir); err == nil || !strings.Contains(err.Error(), "aaai2017-fig3") {
		t.Errorf("unknown figure: %v", err)
	}
}

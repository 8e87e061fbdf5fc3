package aul

import (
	"strings"
	"testing"
)

// TestFigure2Title: Figure 2's title names the betas and the splits the
// rows hold (it said "3 betas" for the smoke run's one beta).
func TestFigure2Title(t *testing.T) {
	for _, c := range []struct {
		rows []Row
		want string
	}{
		{[]Row{{Dataset: "a", Beta: 0.4, Runs: 2}, {Dataset: "b", Beta: 0.4, Runs: 2}}, "(beta 0.4; 2 splits each)"},
		{[]Row{{Dataset: "a", Beta: 0.4, Runs: 20}, {Dataset: "a", Beta: 0.1, Runs: 19}, {Dataset: "a", Beta: 0.2, Runs: 20}},
			"(betas 0.1, 0.2, 0.4; 19 to 20 splits each)"},
		{[]Row{{Dataset: "a", Beta: 0.2, Runs: 1}}, "(beta 0.2; 1 split each)"},
	} {
		if got := Figure2(c.rows).Title; !strings.Contains(got, c.want) {
			t.Errorf("title %q, want it to contain %q", got, c.want)
		}
	}
}

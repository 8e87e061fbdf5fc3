package aaai2017

import (
	"testing"

	"github.com/pueval/pueval/experiments"
)

// The paper's config, built in: 12 data sets x 3 betas x 50 repeats, n_L =
// 1000 (100 for the small data sets), |U| at most 10,000, AlphaMax-N, the
// paper's report.
func TestPaperConfig(t *testing.T) {
	cfg, err := experiments.ReadConfig("aaai2017", experiments.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cells, err := cfg.Cells(experiments.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	p, ok := cfg.Protocol.(*Protocol)
	if len(cells) != 1800 || !ok || p.Labeled != 1000 || p.MaxUnlabeled != 10000 ||
		cfg.Datasets[1].Options.(*experiments.CaseControlDataset).Labeled != 100 ||
		cfg.Datasets[0].Options.(*experiments.CaseControlDataset).Labeled != 0 ||
		len(cfg.Estimators) != 1 || cfg.Estimators[0].ID != "alphamax-n" || cfg.Report != Name || cfg.Dir != "" ||
		cfg.Source != "papers/aaai2017/aaai2017.yaml (embedded)" {
		t.Errorf("%d cells, config %+v", len(cells), cfg)
	}
	if cells[0].ID != "bank/beta=1/repeat=0" {
		t.Errorf("first cell %s", cells[0].ID)
	}
}

package toypaper

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/plugintest"
	"github.com/pueval/pueval/experiments/results"
	"github.com/pueval/pueval/report"
)

// TestToyPaperEndToEnd registers a whole paper from this package (source,
// axis, protocol, measure, report), runs its config through the runner and
// writes its report: nothing in experiments or report was edited for it.
// The numbers: the AUL identity AUL_PU = n_L/(2n) + (1 - n_L/n) AUC_PU
// (an exact identity of the PU ranking, AUL paper section 2.1) holds in
// every cell to rounding, the split is the protocol's (the labeled fraction
// of the positives, beta = 1), and the report's table holds the records'
// means.
func TestToyPaperEndToEnd(t *testing.T) {
	cfg, err := experiments.ParseConfig(Config, "toypaper.yaml", experiments.LoadOptions{Reports: report.Names()})
	if err != nil {
		t.Fatal(err)
	}
	cells, err := cfg.Cells(experiments.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cells) != 12 || cells[0].ID != "blobs/toy-fraction=0.2/repeat=0" {
		t.Fatalf("%d cells, the first %s", len(cells), cells[0].ID)
	}
	dir := t.TempDir()
	sum, err := (&experiments.Runner{Config: cfg, Workers: 2}).Run(context.Background(), cells, dir)
	if err != nil || sum.Failed != 0 || sum.Ran != 12 {
		t.Fatalf("run: %+v %v", sum, err)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{"blobs": 600, "far-blobs": 300}
	means := map[string]float64{}
	for _, r := range recs {
		nL, n := float64(r.Sizes.Labeled), float64(r.Sizes.Labeled+r.Sizes.Unlabeled)
		want := nL/(2*n) + (1-nL/n)*r.Metrics["auc"]["pu"]
		if got := r.Metrics["aul"]["pu"]; math.Abs(got-want) > 1e-12 {
			t.Errorf("%s: AUL_PU %v, identity %v", r.Cell, got, want)
		}
		frac := map[string]float64{"0.2": 0.2, "0.5": 0.5}[r.Grid[Axis]]
		if r.Beta != 1 || r.Sizes.Labeled != int(math.Round(frac*float64(pos[r.Dataset]))) || r.Sizes.Labeled+r.Sizes.Unlabeled != r.Sizes.N {
			t.Errorf("%s: beta %v, sizes %+v", r.Cell, r.Beta, r.Sizes)
		}
		if _, ok := r.Metrics["aul"]["truth:same-model"]; !ok || r.Estimates["alphamax"].Beta != 1 {
			t.Errorf("%s: metrics %v, estimates %v", r.Cell, r.Metrics, r.Estimates)
		}
		if r.Dataset == "far-blobs" && r.Grid[Axis] == "0.5" {
			means["pu"] += r.Metrics["aul"]["pu"] / 3
		}
	}
	man, err := results.ReadManifest(dir)
	if err != nil || man.Report != "toypaper" || man.Protocol != "toy-scar" {
		t.Fatalf("manifest %+v %v", man, err)
	}
	out := filepath.Join(dir, "report")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	index, err := report.Write(out, report.Input{Records: recs, Manifest: man})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(index)
	csv, _ := os.ReadFile(filepath.Join(out, "toy-table.csv"))
	if !strings.Contains(string(html), "Toy paper: AUL is an affine function of AUC") || !strings.Contains(string(html), "far-blobs") {
		t.Errorf("index.html lacks the toy section:\n%s", html)
	}
	var line string
	for _, l := range strings.Split(string(csv), "\n") {
		if strings.HasPrefix(l, "far-blobs,0.5,3,") {
			line = l
		}
	}
	if fields := strings.Split(line, ","); len(fields) < 4 || !near(fields[3], means["pu"]) {
		t.Errorf("toy-table.csv row far-blobs 0.5: %q, want mean AUL_PU %v\n%s", line, means["pu"], csv)
	}
}

func near(s string, want float64) bool {
	var got float64
	if _, err := fmt.Sscan(s, &got); err != nil {
		return false
	}
	return math.Abs(got-want) < 1e-5
}

// TestPlugins runs pueval's plug-in conformance suite on the toy paper's
// plug-ins: the same checks every paper of pueval passes.
func TestPlugins(t *testing.T) {
	plugintest.Registered(t, nil, "toy-blobs", Axis, "toy-scar", "toy-aul")
}

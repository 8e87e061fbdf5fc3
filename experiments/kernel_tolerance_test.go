package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pueval/pueval/classifiers/nnet"
	"github.com/pueval/pueval/experiments/results"
)

// preOptimisationAUC holds, for every cell of testdata/smoke.yaml (the
// AAAI-2017 smoke config papers/aaai2017/aaai2017-smoke.yaml, split alike),
// the out-of-bag AUCs {pu, truth_same_model, truth} (PU classifier labeled
// vs unlabeled; its scores on U judged with the true labels; the
// traditional bag's) computed before issue 10's speed work, at commit
// 02c992a (`pueval run aaai2017-smoke -j 2 --no-score-cache`, the scalar
// float64 kernel, the only one there was).
var preOptimisationAUC = map[string][3]float64{
	"concrete/beta=1/repeat=0":    {0.6741397849462366, 0.7968447293447294, 0.9323741690408357},
	"concrete/beta=1/repeat=1":    {0.655483870967742, 0.7938532763532764, 0.9309354226020893},
	"concrete/beta=0.95/repeat=0": {0.6065752688172042, 0.7922820300485035, 0.9352442919673488},
	"concrete/beta=0.95/repeat=1": {0.6443763440860215, 0.8125209984620845, 0.9322489057139477},
	"concrete/beta=0.75/repeat=0": {0.545989247311828, 0.7504830974382969, 0.9333863609778922},
	"concrete/beta=0.75/repeat=1": {0.5533870967741935, 0.7299730962685694, 0.9306024096385542},
	"housing/beta=1/repeat=0":     {0.7620935960591133, 0.901816328421833, 0.9292929292929293},
	"housing/beta=1/repeat=1":     {0.7614039408866995, 0.8694436721959657, 0.9329688320514009},
	"housing/beta=0.95/repeat=0":  {0.757487684729064, 0.9053863254025475, 0.9279620283585677},
	"housing/beta=0.95/repeat=1":  {0.7219950738916256, 0.9054464071136746, 0.9434330689738044},
	"housing/beta=0.75/repeat=0":  {0.6198275862068966, 0.8303061896400351, 0.9269644424934153},
	"housing/beta=0.75/repeat=1":  {0.6338423645320197, 0.8656442054433714, 0.9314091308165057},
	"pima/beta=1/repeat=0":        {0.7077994011976048, 0.8062440476190477, 0.8304404761904762},
	"pima/beta=1/repeat=1":        {0.6884281437125749, 0.79975, 0.8505595238095238},
	"pima/beta=0.95/repeat=0":     {0.7026347305389221, 0.7892216967361476, 0.8323349097915572},
	"pima/beta=0.95/repeat=1":     {0.7101347305389222, 0.7924680329304606, 0.8337128510538915},
	"pima/beta=0.75/repeat=0":     {0.5702694610778443, 0.7681156258521953, 0.8362367057540223},
	"pima/beta=0.75/repeat=1":     {0.5688023952095809, 0.7709517316607581, 0.8387455685846741},
}

// Tolerances between kernels with different numerics (nnet.KernelNumerics)
// on the smoke config's cells, whose bags have 10 nets: every out-of-bag
// AUC within kernelTolCell of the float64 kernel's, and the mean absolute
// difference over the cells within kernelTolMean. RPROP uses only the
// gradient's signs and the validation error's comparisons, so most nets
// come out the same in float32 as in float64 (the median difference is 0);
// a net whose early stop moves by an epoch changes the scores of the rows
// it predicts. Measured on 180 cells (the smoke config with 20 repeats):
// max 0.0065, 99th percentile 0.0053, mean 0.00015. The float64 scalar
// kernel itself must reproduce preOptimisationAUC exactly.
const (
	kernelTolCell = 0.01
	kernelTolMean = 0.002
)

// smokeWithKernel is the smoke config with the classifier's kernel set.
func smokeWithKernel(t *testing.T, kernel string) *Config {
	return smokeConfig(t, func(s string) string {
		return strings.Replace(s, "  max_fail: 25\n", "  max_fail: 25\n  kernel: "+kernel+"\n", 1)
	})
}

// smokeAUCs runs the smoke config with a kernel and returns each cell's
// {pu, truth:same-model, truth:traditional} AUCs, checking that every record names the kernel.
func smokeAUCs(t *testing.T, kernel string, sel Selection) map[string][3]float64 {
	t.Helper()
	cfg := smokeWithKernel(t, kernel)
	dir, sum := runSmoke(t, cfg, sel, 2, nil)
	if sum.Failed != 0 {
		t.Fatalf("kernel %s: %d cells failed", kernel, sum.Failed)
	}
	recs, err := results.ReadRecords(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := results.ReadManifest(dir)
	if err != nil || m.Kernel != kernel {
		t.Errorf("kernel %s: manifest says kernel %q (%v)", kernel, m.Kernel, err)
	}
	out := map[string][3]float64{}
	for _, r := range recs {
		if r.Kernel != kernel {
			t.Errorf("kernel %s: record %s says kernel %q", kernel, r.Cell, r.Kernel)
		}
		a := r.Metrics["auc"]
		out[r.Cell] = [3]float64{a[results.PU], a[results.TruthKey("same-model")], a[results.TruthKey("traditional")]}
	}
	return out
}

// TestKernelTolerance: on the smoke config's cells, the scalar kernel
// reproduces the pre-optimisation AUCs bit for bit; every float32x16
// kernel (float32-go everywhere, on the first repeat to keep the test
// short; avx512 and avx2 where the binary and CPU have them, on every
// cell) agrees with them within kernelTolCell per AUC and kernelTolMean on average; and
// all float32x16 kernels give the same AUCs bit for bit.
func TestKernelTolerance(t *testing.T) {
	needMirror(t)
	scalar := smokeAUCs(t, "scalar", Selection{})
	if len(scalar) != len(preOptimisationAUC) {
		t.Fatalf("%d cells, want %d", len(scalar), len(preOptimisationAUC))
	}
	for cell, want := range preOptimisationAUC {
		if got := scalar[cell]; got != want {
			t.Errorf("scalar kernel, %s: AUCs %v, before the speed work %v", cell, got, want)
		}
	}
	var f32 map[string][3]float64 // the first float32x16 kernel's AUCs
	for _, kernel := range nnet.Kernels() {
		if nnet.KernelNumerics(kernel) == nnet.NumericsFloat64 {
			continue
		}
		sel := Selection{}
		if kernel == "float32-go" {
			sel.Repeats = 1
		}
		got := smokeAUCs(t, kernel, sel)
		var sum, worst float64
		n := 0
		for _, cell := range slices.Sorted(maps.Keys(got)) {
			for i, name := range []string{"pu", "truth_same_model", "truth"} {
				d := math.Abs(got[cell][i] - preOptimisationAUC[cell][i])
				sum += d
				n++
				worst = max(worst, d)
				if d > kernelTolCell {
					t.Errorf("kernel %s, %s: AUC %s = %v, float64 %v (difference %.4g > %v)",
						kernel, cell, name, got[cell][i], preOptimisationAUC[cell][i], d, kernelTolCell)
				}
			}
			if f32 != nil {
				if want, ok := f32[cell]; ok && want != got[cell] {
					t.Errorf("kernel %s, %s: AUCs %v, the other float32x16 kernel's %v: same numerics, different bits",
						kernel, cell, got[cell], want)
				}
			}
		}
		if mean := sum / float64(n); mean > kernelTolMean {
			t.Errorf("kernel %s: mean |AUC difference| %.4g > %v", kernel, mean, kernelTolMean)
		}
		t.Logf("kernel %s: %d cells, max |AUC - float64 AUC| %.3g, mean %.3g", kernel, len(got), worst, sum/float64(n))
		if f32 == nil {
			f32 = got
		}
	}
}

// TestScoreCacheSeparatesKernels: scores cached by one kernel are never
// served to a kernel with other numerics, and are to one with the same.
func TestScoreCacheSeparatesKernels(t *testing.T) {
	needMirror(t)
	cache, err := results.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sel := Selection{Repeats: 1, Datasets: []string{"pima"}}
	// 3 cells (betas) and the traditional bag.
	if _, sum := runSmoke(t, smokeWithKernel(t, "scalar"), sel, 2, cache); sum.Trained != 4 || sum.CacheHits != 0 {
		t.Fatalf("scalar, empty cache: %+v", sum)
	}
	if _, sum := runSmoke(t, smokeWithKernel(t, "float32-go"), sel, 2, cache); sum.Trained != 4 || sum.CacheHits != 0 {
		t.Fatalf("float32-go after scalar: %+v (want 4 trained, no cache hit)", sum)
	}
	if _, sum := runSmoke(t, smokeWithKernel(t, "scalar"), sel, 2, cache); sum.Trained != 0 || sum.CacheHits != 4 {
		t.Fatalf("scalar again: %+v (want 4 cache hits)", sum)
	}
	for _, k := range nnet.Kernels() {
		if k != "float32-go" && nnet.KernelNumerics(k) == nnet.NumericsFloat32x16 {
			if _, sum := runSmoke(t, smokeWithKernel(t, k), sel, 2, cache); sum.Trained != 0 || sum.CacheHits != 4 {
				t.Errorf("%s after float32-go (same numerics): %+v (want 4 cache hits)", k, sum)
			}
		}
	}
}

// TestForcedKernelsSameRecords: the records of both smoke configs are the
// same, value for value, whichever float32x16 kernel runs: the default
// ("auto": the fastest here) and each other one this CPU can run, forced
// through $PUEVAL_KERNEL (avx2 on an AVX-512 machine, and float32-go,
// plain Go, everywhere). Only the kernel's name, the timings and the
// training work may differ, and the name must be the forced kernel's in
// every record and in the manifest. This is what makes records identical
// across CPUs and builds.
func TestForcedKernelsSameRecords(t *testing.T) {
	needMirror(t)
	st, names := openData(t)
	auto := nnet.KernelName()
	if nnet.KernelNumerics(auto) != nnet.NumericsFloat32x16 {
		t.Fatalf("auto takes kernel %q, numerics %q: want float32x16 on every machine", auto, nnet.KernelNumerics(auto))
	}
	run := func(t *testing.T, config, kernel string) []results.Record {
		t.Helper()
		cfg, err := ReadConfig(config, LoadOptions{Catalog: names})
		if err != nil {
			t.Fatal(err)
		}
		cells, err := cfg.Cells(Selection{})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		sum, err := (&Runner{Config: cfg, Data: st, Workers: 2}).Run(context.Background(), cells, dir)
		if err != nil || sum.Failed != 0 {
			t.Fatalf("%s with kernel %s: %+v, %v", config, kernel, sum, err)
		}
		recs, err := results.ReadRecords(dir)
		if err != nil {
			t.Fatal(err)
		}
		if m, err := results.ReadManifest(dir); err != nil || m.Kernel != kernel {
			t.Errorf("%s: manifest names kernel %q, want %q (%v)", config, m.Kernel, kernel, err)
		}
		for i := range recs {
			if recs[i].Kernel != kernel {
				t.Errorf("%s, %s: record names kernel %q, want %q", config, recs[i].Cell, recs[i].Kernel, kernel)
			}
			recs[i].Kernel, recs[i].Timings, recs[i].Work = "", nil, nil
		}
		return recs
	}
	for _, config := range []string{"testdata/smoke.yaml", "testdata/smoke-threshold.yaml"} {
		t.Run(config, func(t *testing.T) {
			t.Setenv(nnet.KernelEnv, "")
			want := run(t, config, auto)
			for _, kernel := range nnet.Kernels() {
				if kernel == auto || nnet.KernelNumerics(kernel) != nnet.NumericsFloat32x16 {
					continue
				}
				t.Setenv(nnet.KernelEnv, kernel)
				got := run(t, config, kernel)
				if len(got) != len(want) {
					t.Fatalf("kernel %s: %d records, %s: %d", kernel, len(got), auto, len(want))
				}
				for i := range want {
					a, _ := json.Marshal(got[i])
					b, _ := json.Marshal(want[i])
					if !bytes.Equal(a, b) {
						t.Errorf("kernel %s, record %d (%s) differs from kernel %s's:\n%s\n%s", kernel, i, want[i].Cell, auto, a, b)
					}
				}
			}
		})
	}
}

package classifiers

import (
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/pueval/pueval/classifiers/nnet"
)

// decodeStrict decodes YAML into the named classifier's defaults the way a
// config loader should: unknown fields are errors, absent fields keep their
// defaults, and the result is validated.
func decodeStrict(t *testing.T, name, src string) (Config, error) {
	t.Helper()
	cfg, err := Defaults(name)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil {
		return nil, err
	}
	return cfg, cfg.Validate()
}

func TestYAMLOptions(t *testing.T) {
	cfg, err := decodeStrict(t, NNetBagName, `
bags: 20
hidden: 7
max_epochs: 5000
split: unique
rprop: {delta0: 0.05}
workers: 2
`)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.(*NNetBag)
	want := DefaultNNetBag()
	want.Bags, want.Hidden, want.MaxEpochs, want.Split, want.RPROP.Delta0, want.Workers = 20, 7, 5000, SplitUnique, 0.05, 2
	if *o != want {
		t.Errorf("decoded %+v, want %+v (absent fields keep their defaults)", *o, want)
	}

	if _, err := decodeStrict(t, NNetBagName, "bags: 10\nhiden: 5\n"); err == nil || !strings.Contains(err.Error(), "hiden") {
		t.Errorf("unknown field: %v", err)
	}
	if _, err := decodeStrict(t, NNetBagName, "rprop: {delta_0: 1}\n"); err == nil || !strings.Contains(err.Error(), "delta_0") {
		t.Errorf("unknown nested field: %v", err)
	}
	if _, err := decodeStrict(t, NNetBagName, "bags: many\n"); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("type error: %v", err)
	}
	_, err = decodeStrict(t, NNetBagName, "bags: -1\nval_fraction: 1.5\nsplit: positions\nrprop: {inc: 0.9}\n")
	for _, want := range []string{"bags = -1", "val_fraction = 1.5", `split = "positions"`, "rprop.inc = 0.9"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("validation error %v should mention %q", err, want)
		}
	}
}

func TestRegistry(t *testing.T) {
	// Each classifier's own tests check its entry; here: these are listed.
	if names := Names(); !slices.Contains(names, NNetBagName) || !slices.Contains(names, GBDTName) || !slices.IsSorted(names) {
		t.Errorf("Names() = %v", names)
	}
	if _, err := Defaults("nonesuch"); err == nil || !strings.Contains(err.Error(), NNetBagName) {
		t.Errorf("unknown classifier: %v (should list the known ones)", err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("registering nnet-bag twice did not panic")
			}
		}()
		Register(NNetBagName, func() Config { o := DefaultNNetBag(); return &o })
	}()
	cfg, err := Defaults(NNetBagName)
	if err != nil {
		t.Fatal(err)
	}
	s, err := cfg.New()
	if err != nil || s.Name() != NNetBagName {
		t.Fatalf("New: %v %v", s, err)
	}
	// The defaults are the published settings (DESIGN.md section 6).
	o := cfg.(*NNetBag)
	if o.Bags != 100 || o.Hidden != 5 || o.MaxEpochs != 500 || o.MaxFail != 25 || o.ValFraction != 0.25 ||
		o.Split != SplitPosition || o.RPROP.Delta0 != 0.07 || o.RPROP.Inc != 1.2 || o.RPROP.Dec != 0.5 ||
		o.RPROP.DeltaMax != 50 || o.RPROP.MinGrad != 1e-5 {
		t.Errorf("defaults %+v differ from the published settings", *o)
	}
	// Key: workers never change scores, everything else may.
	a, b := DefaultNNetBag(), DefaultNNetBag()
	b.Workers = 7
	if a.Key() != b.Key() {
		t.Errorf("workers changed the key: %q vs %q", a.Key(), b.Key())
	}
	b.MaxFail = 26
	if a.Key() == b.Key() {
		t.Errorf("max_fail did not change the key %q", a.Key())
	}
	t.Log(a.Key())
}

// TestKeyNamesNumerics: Key carries the kernel's numerics except for the
// scalar kernel's float64 (whose keys predate the vector kernels), so that
// a score cache never mixes them; kernel "auto" resolves to this machine's
// fastest kernel.
func TestKeyNamesNumerics(t *testing.T) {
	o := DefaultNNetBag()
	o.Kernel = "scalar"
	scalar := o.Key()
	if strings.Contains(scalar, "numerics") || o.KernelName() != "scalar" {
		t.Errorf("scalar kernel: key %q, kernel %q", scalar, o.KernelName())
	}
	o.Kernel = "float32-go"
	if k := o.Key(); !strings.HasSuffix(k, " numerics=float32x16") || strings.TrimSuffix(k, " numerics=float32x16") != scalar {
		t.Errorf("float32-go: key %q", k)
	}
	o.Kernel = ""
	want := nnet.KernelName()
	if o.KernelName() != want {
		t.Errorf("auto kernel %q, want %q", o.KernelName(), want)
	}
	auto := o.Key()
	o.Kernel = want
	if o.Key() != auto {
		t.Errorf("auto key %q, %s key %q", auto, want, o.Key())
	}
	o.Kernel = "nonesuch"
	if err := o.Validate(); err == nil || !strings.Contains(err.Error(), "kernel") {
		t.Errorf("unknown kernel: %v", err)
	}
}

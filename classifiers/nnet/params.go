package nnet

import (
	"errors"
	"fmt"
	"math"
)

// Params are the settings of one net and its training run. The zero value is
// not usable; start from [DefaultParams] (the published AAAI-2017 settings) and
// change fields. The yaml tags let a caller decode them from a config file
// (strictly, with yaml.v3's KnownFields); nnet itself does not read YAML.
type Params struct {
	// Hidden is h, the number of tanh units of the single hidden layer
	// (AAAI 2017: 5; PSB 2019: 7).
	Hidden int `yaml:"hidden"`
	// MaxEpochs bounds the number of RPROP weight updates (MATLAB trainParam.epochs;
	// AAAI 2017: 500, PSB 2019: 5000).
	MaxEpochs int `yaml:"max_epochs"`
	// MaxFail stops training after this many consecutive epochs whose
	// validation error is worse than the best so far (MATLAB max_fail: 25).
	MaxFail int `yaml:"max_fail"`
	// RPROP holds the step-size rule's constants.
	RPROP RPROP `yaml:"rprop"`
	// Kernel names the epoch kernel (kernel.go): "" or "auto" for the
	// fastest float32x16 kernel this build and CPU can run (KernelName;
	// $PUEVAL_KERNEL forces the choice), "avx512" for the float32 AVX-512
	// kernel (amd64 CPUs with AVX-512), "avx2" for the same numerics and
	// bits with AVX2 (amd64 CPUs with AVX2 and FMA), "neon" for them with
	// arm64's Advanced SIMD (arm64 CPUs), "float32-go" for those numerics
	// in plain Go on any CPU, "scalar" for the portable float64 kernel (the
	// published code's precision; never chosen by "auto"). Kernels with
	// different numerics (KernelNumerics) train slightly different nets.
	Kernel string `yaml:"kernel"`
}

// RPROP are the constants of the resilient back-propagation step rule
// (Riedmiller & Braun 1993), with MATLAB trainrp's defaults.
type RPROP struct {
	Delta0   float64 `yaml:"delta0"`    // initial step of every weight (0.07)
	Inc      float64 `yaml:"inc"`       // step factor when the gradient keeps its sign (1.2)
	Dec      float64 `yaml:"dec"`       // step factor when the gradient changes sign (0.5)
	DeltaMax float64 `yaml:"delta_max"` // upper bound on a step (50)
	// MinGrad stops training when the Euclidean norm of the gradient of the
	// training MSE (0/1 target units) falls below it (1e-5).
	MinGrad float64 `yaml:"min_grad"`
}

// DefaultParams returns the published settings: h = 5, 500 epochs, 25
// validation failures, trainrp's delta0 0.07, increase 1.2, decrease 0.5,
// delta_max 50, min_grad 1e-5 (MATLAB's trainrp defaults).
func DefaultParams() Params {
	return Params{
		Hidden:    5,
		MaxEpochs: 500,
		MaxFail:   25,
		RPROP:     DefaultRPROP(),
	}
}

// DefaultRPROP returns MATLAB trainrp's defaults.
func DefaultRPROP() RPROP {
	return RPROP{Delta0: 0.07, Inc: 1.2, Dec: 0.5, DeltaMax: 50, MinGrad: 1e-5}
}

// Validate reports every out-of-range field at once, each error naming the
// YAML field, its value and what is expected.
func (p Params) Validate() error {
	var errs []error
	bad := func(field string, v any, want string) {
		errs = append(errs, fmt.Errorf("%s = %v: want %s", field, v, want))
	}
	if p.Hidden < 1 || p.Hidden > maxHidden {
		bad("hidden", p.Hidden, fmt.Sprintf("an integer in [1, %d]", maxHidden))
	}
	if p.MaxEpochs < 0 {
		bad("max_epochs", p.MaxEpochs, "an integer >= 0")
	}
	if p.MaxFail < 1 {
		bad("max_fail", p.MaxFail, "an integer >= 1")
	}
	r := p.RPROP
	if !(r.Delta0 > 0) || math.IsInf(r.Delta0, 0) {
		bad("rprop.delta0", r.Delta0, "a finite number > 0")
	}
	if !(r.Inc > 1) || math.IsInf(r.Inc, 0) {
		bad("rprop.inc", r.Inc, "a finite number > 1")
	}
	if !(r.Dec > 0 && r.Dec < 1) {
		bad("rprop.dec", r.Dec, "a number in (0, 1)")
	}
	if !(r.DeltaMax >= r.Delta0) || math.IsInf(r.DeltaMax, 0) {
		bad("rprop.delta_max", r.DeltaMax, "a finite number >= rprop.delta0")
	}
	if !(r.MinGrad >= 0) || math.IsInf(r.MinGrad, 0) {
		bad("rprop.min_grad", r.MinGrad, "a finite number >= 0")
	}
	if _, err := resolveKernel(p.Kernel); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// KernelName is the epoch kernel these parameters select: Kernel itself, or
// for "" and "auto" the fastest kernel available (the package's KernelName).
// It is "" when Kernel names no available kernel (Validate says why).
func (p Params) KernelName() string {
	k, err := resolveKernel(p.Kernel)
	if err != nil {
		return ""
	}
	return k.name
}

// maxHidden bounds h so that a typo (5000 hidden units) is an error rather
// than an hour of training; the papers use 5 and 7.
const maxHidden = 1024

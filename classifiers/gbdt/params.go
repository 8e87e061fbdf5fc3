package gbdt

import (
	"errors"
	"fmt"
	"math"
	"runtime"
)

// Params are the options of one boosted model. The YAML tags let a caller
// inline them into a classifier's options (classifiers.GBDT does).
type Params struct {
	// Leaves is the most leaves a tree may have (LightGBM num_leaves,
	// scikit-learn max_leaf_nodes).
	Leaves int `yaml:"leaves"`
	// LearningRate multiplies every leaf value (shrinkage).
	LearningRate float64 `yaml:"learning_rate"`
	// Rounds is the number of trees (boosting iterations); there is no early
	// stopping.
	Rounds int `yaml:"rounds"`
	// MinLeaf is the fewest training rows a leaf may hold (LightGBM
	// min_data_in_leaf, scikit-learn min_samples_leaf).
	MinLeaf int `yaml:"min_leaf"`
	// MinHessian is the smallest hessian sum a leaf may hold (LightGBM
	// min_sum_hessian_in_leaf, scikit-learn's fixed min_hessian_to_split):
	// it keeps -G/(H+lambda) finite when lambda is 0 and a leaf is pure.
	MinHessian float64 `yaml:"min_hessian"`
	// Bins is the most histogram bins per feature, 2..256 (bins are stored
	// as bytes).
	Bins int `yaml:"bins"`
	// Lambda is the L2 penalty on leaf values (LightGBM lambda_l2,
	// scikit-learn l2_regularization).
	Lambda float64 `yaml:"lambda"`
	// MinGain is the gain a split must exceed (LightGBM min_gain_to_split).
	MinGain float64 `yaml:"min_gain"`
	// MaxDepth limits the depth of a tree; 0 = no limit (leaf-wise growth
	// is bounded by Leaves).
	MaxDepth int `yaml:"max_depth"`
	// Workers is the number of goroutines that build histograms; 0 =
	// GOMAXPROCS. It never changes a bit of the model.
	Workers int `yaml:"workers" key:"-"`
}

// DefaultParams returns LightGBM's defaults for binary classification
// (num_leaves 31, learning_rate 0.1, 100 iterations, min_data_in_leaf 20,
// max_bin 255, lambda_l2 0, min_gain_to_split 0, min_sum_hessian_in_leaf
// 1e-3), which are also scikit-learn HistGradientBoostingClassifier's
// (max_leaf_nodes 31, max_iter 100, min_samples_leaf 20, max_bins 255).
func DefaultParams() Params {
	return Params{Leaves: 31, LearningRate: 0.1, Rounds: 100, MinLeaf: 20, MinHessian: 1e-3, Bins: 255}
}

// Bounds that turn typos into errors rather than hours of training.
const (
	maxLeaves = 1 << 16
	maxRounds = 1 << 20
	maxBins   = 256
)

// Validate reports every invalid field at once, naming its YAML field.
func (p Params) Validate() error {
	var errs []error
	if p.Leaves < 2 || p.Leaves > maxLeaves {
		errs = append(errs, fmt.Errorf("leaves = %d: want an integer in [2, %d]", p.Leaves, maxLeaves))
	}
	if !(p.LearningRate > 0 && p.LearningRate <= 1e3) {
		errs = append(errs, fmt.Errorf("learning_rate = %v: want a number in (0, 1000]", p.LearningRate))
	}
	if p.Rounds < 1 || p.Rounds > maxRounds {
		errs = append(errs, fmt.Errorf("rounds = %d: want an integer in [1, %d]", p.Rounds, maxRounds))
	}
	if p.MinLeaf < 1 {
		errs = append(errs, fmt.Errorf("min_leaf = %d: want an integer >= 1", p.MinLeaf))
	}
	if !(p.MinHessian >= 0) || math.IsInf(p.MinHessian, 1) {
		errs = append(errs, fmt.Errorf("min_hessian = %v: want a finite number >= 0", p.MinHessian))
	}
	if p.Bins < 2 || p.Bins > maxBins {
		errs = append(errs, fmt.Errorf("bins = %d: want an integer in [2, %d]", p.Bins, maxBins))
	}
	if !(p.Lambda >= 0) || math.IsInf(p.Lambda, 1) {
		errs = append(errs, fmt.Errorf("lambda = %v: want a finite number >= 0", p.Lambda))
	}
	if !(p.MinGain >= 0) || math.IsInf(p.MinGain, 1) {
		errs = append(errs, fmt.Errorf("min_gain = %v: want a finite number >= 0", p.MinGain))
	}
	if p.MaxDepth < 0 {
		errs = append(errs, fmt.Errorf("max_depth = %d: want an integer >= 0 (0 = no limit)", p.MaxDepth))
	}
	if p.Lambda == 0 && p.MinHessian == 0 {
		// A pure leaf would have H = 0 and value -G/0.
		errs = append(errs, errors.New("lambda = 0 and min_hessian = 0: want at least one of them > 0 (leaf values are -G/(H+lambda))"))
	}
	if p.Workers < 0 {
		errs = append(errs, fmt.Errorf("workers = %d: want an integer >= 0 (0 = GOMAXPROCS)", p.Workers))
	}
	return errors.Join(errs...)
}

// Key is a canonical string of every option that can change a model (all
// but Workers).
func (p Params) Key() string {
	return fmt.Sprintf("leaves=%d learning_rate=%v rounds=%d min_leaf=%d min_hessian=%v bins=%d lambda=%v min_gain=%v max_depth=%d",
		p.Leaves, p.LearningRate, p.Rounds, p.MinLeaf, p.MinHessian, p.Bins, p.Lambda, p.MinGain, p.MaxDepth)
}

func (p Params) workers() int {
	if p.Workers > 0 {
		return p.Workers
	}
	return runtime.GOMAXPROCS(0)
}

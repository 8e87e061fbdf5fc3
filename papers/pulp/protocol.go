package pulp

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/pueval/pueval/experiments"

	"github.com/pueval/pueval/datasets/gmm"
)

// Protocol is the PULP paper's protocol (Hajizadeh, Li, Dollevoet,
// Tax, S+SSPR 2014, Sec. 3 and Fig. 1) as pueval specifies it (the paper
// leaves the sizes, the grid and the mixture model open):
//
//   - P: Positives rows drawn from the data set's positives; L: Labeled of
//     them, chosen by the labeling scenario; U: the other Positives -
//     Labeled positives and round((Positives - Labeled) (1 - pi) / pi)
//     negatives, so that Pr[y = 1] in U is pi (grid axis unlabeled-prior).
//   - Scenarios (grid axis labeling): random (L drawn at random from P);
//     scenario1 (the least representative positives left unlabeled: L =
//     the Labeled rows of P with the highest mixture log-density);
//     scenario2 (the most representative left unlabeled: L = the lowest).
//     Representativeness is the log-density under a Gaussian mixture
//     (package datasets/gmm: Components components, diagonal covariances,
//     EM from k-means++ seeds) fitted on every positive of the data set
//     ("the whole class of actual positives") after PCA to PCA dimensions.
//   - Folds: Folds-fold cross-validation stratified by (labeled, unlabeled
//     positive, unlabeled negative): the PU classifier of the cell trains
//     on the other folds and scores each held-out fold; the measure
//     pu-measures computes the paper's measures per fold.
//
// P, the negatives (nested: a smaller pi's negatives include a larger
// pi's) and the random scenario's L are drawn from the cell's shared stream
// that only the data set and the repeat choose (Streams.Shared), so every
// classifier, scenario and pi of a problem sees the same positives; the
// folds' shared stream adds pi and the scenario. Every classifier of a (problem, pi, scenario) is thus trained
// and measured on the same rows and folds.
//
//	protocol: {name: biased-labeling, positives: 400, labeled: 200, folds: 8}
//	grid:
//	  unlabeled-prior: [0.1, 0.3, 0.5, 0.7, 0.9]
//	  labeling: [random, scenario1, scenario2]
type Protocol struct {
	Positives  int    `yaml:"positives"`  // |P| drawn from the positives
	Labeled    int    `yaml:"labeled"`    // |L| (the rest of P is unlabeled)
	Folds      int    `yaml:"folds"`      // k of the cross-validation
	Components int    `yaml:"components"` // mixture components
	PCA        int    `yaml:"pca"`        // dimensions kept before the mixture (0: none)
	GMMSeed    uint64 `yaml:"gmm_seed"`   // the mixture's k-means++ seeding stream
	// Representativeness is the score of the mixture that orders the
	// positives in scenarios 1 and 2: RepDensity (the log-density, the
	// default) or RepPosterior (the largest component posterior). The paper
	// says only that the mixture's "output posterior probabilities are used
	// as indicators of representativeness"; a one-class mixture's output is
	// its density, the other reading the component posteriors.
	Representativeness string `yaml:"representativeness"`

	reps sync.Map // data fingerprint -> *repEntry
}

// repEntry is one data set's representativeness, computed once (again
// only when a cancelled cell's context stopped the first computation).
type repEntry struct {
	mu   sync.Mutex
	done bool
	rep  map[int]float64 // positive row -> log-density
	err  error
}

// Axis names and the labeling scenarios.
const (
	axisUnlabeledPrior = "unlabeled-prior"
	axisLabeling       = "labeling"
	axisVariant        = "pulp-variant"

	LabelingRandom    = "random"
	LabelingScenario1 = "scenario1"
	LabelingScenario2 = "scenario2"
)

// DefaultProtocol returns the specified protocol: 400 positives, 200
// labeled, 8 folds, a 3-component mixture after PCA to 20 dimensions.
func DefaultProtocol() *Protocol {
	return &Protocol{Positives: 400, Labeled: 200, Folds: 8, Components: 3, PCA: 20, GMMSeed: 1, Representativeness: RepDensity}
}

// The scores of representativeness (Protocol.Representativeness).
const (
	RepDensity   = "density"
	RepPosterior = "posterior"
)

func (p *Protocol) Name() string                               { return "biased-labeling" }
func (p *Protocol) DatasetOptions() experiments.DatasetOptions { return nil }
func (p *Protocol) New() (experiments.Protocol, error)         { return p, p.Validate() }

func (p *Protocol) Key() string {
	k := fmt.Sprintf("biased-labeling/v1/positives=%d/labeled=%d/folds=%d/components=%d/pca=%d/gmm_seed=%d",
		p.Positives, p.Labeled, p.Folds, p.Components, p.PCA, p.GMMSeed)
	if p.Representativeness != RepDensity {
		k += "/representativeness=" + p.Representativeness // the default keeps the key of the runs before the option
	}
	return k
}

func (p *Protocol) Validate() error {
	return p.settings().validate()
}

// settings are the protocol's sizes and mixture, which a cell's
// pulp-variant overrides.
type settings struct {
	Positives, Labeled, Folds, Components, PCA int
	GMMSeed                                    uint64
	Representativeness                         string
}

func (p *Protocol) settings() settings {
	return settings{p.Positives, p.Labeled, p.Folds, p.Components, p.PCA, p.GMMSeed, p.Representativeness}
}

func (p settings) validate() error {
	var errs []error
	if p.Representativeness != RepDensity && p.Representativeness != RepPosterior {
		errs = append(errs, fmt.Errorf("representativeness %q: want %s or %s", p.Representativeness, RepDensity, RepPosterior))
	}
	if p.Labeled < 1 || p.Labeled >= p.Positives {
		errs = append(errs, fmt.Errorf("labeled %d: want 1 <= labeled < positives (%d), so that U holds positives", p.Labeled, p.Positives))
	}
	if p.Folds < 2 || p.Folds > p.Labeled || p.Folds > p.Positives-p.Labeled {
		errs = append(errs, fmt.Errorf("folds %d: want 2 <= folds <= labeled and <= positives - labeled (every fold needs labeled and unlabeled positives)", p.Folds))
	}
	if p.Components < 1 {
		errs = append(errs, fmt.Errorf("components %d: want >= 1", p.Components))
	}
	if p.PCA < 0 {
		errs = append(errs, fmt.Errorf("pca %d: want >= 0 (0 = no PCA)", p.PCA))
	}
	return experiments.JoinErrors("biased-labeling", errs)
}

func (p *Protocol) Axes() []experiments.AxisUse {
	return []experiments.AxisUse{
		{Name: axisUnlabeledPrior, Default: []string{"0.1", "0.3", "0.5", "0.7", "0.9"}},
		{Name: axisLabeling, Default: []string{LabelingRandom, LabelingScenario1, LabelingScenario2}},
		{Name: axisVariant}, // no default: cells without it keep their IDs
	}
}

// Split draws P, L, U and the folds (see the type's documentation) from the
// cell's shared streams; the mixture model of the scenarios honours ctx.
func (p *Protocol) Split(ctx context.Context, in experiments.SplitInput) (experiments.Split, error) {
	pi, ok := in.Cell.Float(axisUnlabeledPrior)
	if !ok {
		return experiments.Split{}, fmt.Errorf("biased-labeling: the cell has no %s", axisUnlabeledPrior)
	}
	q, err := p.cellSettings(in.Cell)
	if err != nil {
		return experiments.Split{}, err
	}
	scenario := LabelingRandom
	if v, ok := in.Cell.Value(axisLabeling); ok {
		scenario = v.Text
	}
	var pos, neg []int
	for i, y := range in.Data.Y {
		if y {
			pos = append(pos, i)
		} else {
			neg = append(neg, i)
		}
	}
	if len(pos) < q.Positives {
		return experiments.Split{}, fmt.Errorf("biased-labeling: %s has %d positives, fewer than positives: %d", in.Data.Name, len(pos), q.Positives)
	}
	unlabeledPos := q.Positives - q.Labeled
	nNeg := int(math.Round(float64(unlabeledPos) * (1 - pi) / pi))
	if nNeg > len(neg) {
		return experiments.Split{}, fmt.Errorf("biased-labeling: Pr[y=1] = %v in U needs %d negatives; %s has %d", pi, nNeg, in.Data.Name, len(neg))
	}
	if nNeg < 1 {
		return experiments.Split{}, fmt.Errorf("biased-labeling: Pr[y=1] = %v in U leaves no negative in U (%d unlabeled positives)", pi, unlabeledPos)
	}

	// P, the negatives' order and the random L: one stream per data set
	// and repeat.
	rows := in.Streams.Shared("biased-labeling/rows")
	rows.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	rows.Shuffle(len(neg), func(i, j int) { neg[i], neg[j] = neg[j], neg[i] })
	P := pos[:q.Positives]
	var labeled []int
	switch scenario {
	case LabelingRandom:
		// P is already in random order: its first Labeled rows are a
		// uniform draw.
		labeled = slices.Clone(P[:q.Labeled])
	case LabelingScenario1, LabelingScenario2:
		rep, err := p.representativeness(ctx, in.Data, q)
		if err != nil {
			return experiments.Split{}, err
		}
		byRep := slices.Clone(P)
		// Most representative first; ties by row index so that the order
		// does not depend on the draw.
		slices.SortStableFunc(byRep, func(a, b int) int {
			if ra, rb := rep[a], rep[b]; ra != rb {
				if ra > rb {
					return -1
				}
				return 1
			}
			return a - b
		})
		if scenario == LabelingScenario1 {
			labeled = byRep[:q.Labeled] // the least representative stay unlabeled
		} else {
			labeled = byRep[len(byRep)-q.Labeled:] // the most representative stay unlabeled
		}
	default:
		return experiments.Split{}, fmt.Errorf("biased-labeling: unknown labeling %q", scenario)
	}
	slices.Sort(labeled)
	isL := make(map[int]bool, len(labeled))
	for _, r := range labeled {
		isL[r] = true
	}
	var uPos []int
	for _, r := range P {
		if !isL[r] {
			uPos = append(uPos, r)
		}
	}
	slices.Sort(uPos)
	uNeg := slices.Sorted(slices.Values(neg[:nNeg]))
	unlabeled := append(uPos, uNeg...)

	// Folds stratified by (labeled, unlabeled positive, unlabeled negative).
	fr := in.Streams.Shared("biased-labeling/folds", axisUnlabeledPrior, axisLabeling)
	folds := make([]int, len(labeled)+len(unlabeled))
	offset := 0
	for _, group := range []int{len(labeled), len(uPos), len(uNeg)} {
		perm := fr.Perm(group)
		for i, j := range perm {
			folds[offset+j] = i % q.Folds
		}
		offset += group
	}
	return experiments.Split{Labeled: labeled, Unlabeled: unlabeled, Folds: folds}, nil
}

// representativeness returns the mixture log-density of every positive of
// the data, computed once per data set.
func (p *Protocol) representativeness(ctx context.Context, data *experiments.Data, q settings) (map[int]float64, error) {
	if data.X == nil {
		return nil, fmt.Errorf("biased-labeling: scenarios 1 and 2 need features; %s is a ranking", data.Name)
	}
	key := fmt.Sprintf("%s/%s/%d/%d/%d/%s", data.Fingerprint, data.Name, q.Components, q.PCA, q.GMMSeed, q.Representativeness)
	e, _ := p.reps.LoadOrStore(key, &repEntry{})
	entry := e.(*repEntry)
	entry.mu.Lock()
	defer entry.mu.Unlock()
	if !entry.done {
		var pos []int
		for i, y := range data.Y {
			if y {
				pos = append(pos, i)
			}
		}
		o := gmm.DefaultOptions()
		o.Components, o.PCA, o.Seed = q.Components, q.PCA, q.GMMSeed
		score := gmm.Representativeness
		if q.Representativeness == RepPosterior {
			score = gmm.MaxPosterior
		}
		logDens, err := score(ctx, data.X, pos, o)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err() // not cached: another cell computes it
		}
		entry.done = true
		if err != nil {
			entry.err = fmt.Errorf("biased-labeling: representativeness of %s's positives: %w", data.Name, err)
		} else {
			entry.rep = make(map[int]float64, len(pos))
			for i, r := range pos {
				entry.rep[r] = logDens[i]
			}
		}
	}
	return entry.rep, entry.err
}

// Compile-time checks.
var (
	_ experiments.ProtocolConfig = (*Protocol)(nil)
	_ experiments.Protocol       = (*Protocol)(nil)
)

func init() {
	experiments.Protocols.Register("biased-labeling", "the PULP paper's: P positives, L of them labeled at random or by representativeness (scenario1/2), U with Pr[y=1] = unlabeled-prior, k-fold CV",
		func() experiments.ProtocolConfig { return DefaultProtocol() })
	experiments.RegisterAxis(experiments.Axis{
		Name: axisUnlabeledPrior,
		Doc: "Pr[y = 1] in the unlabeled set (PULP paper's x-axis; protocol biased-labeling sizes U's negatives by it); " +
			"a number in (0, 1)",
		Parse:    experiments.UnitFloatAxis(axisUnlabeledPrior, true),
		Examples: [2]string{"0.1", "0.5"},
	})
	experiments.RegisterAxis(experiments.Axis{
		Name:     axisLabeling,
		Doc:      "how the labeled positives are chosen (protocol biased-labeling): random, scenario1 (least representative left unlabeled) or scenario2 (most representative left unlabeled)",
		Parse:    experiments.ChoiceAxis(axisLabeling, LabelingRandom, LabelingScenario1, LabelingScenario2),
		Examples: [2]string{LabelingRandom, LabelingScenario2},
	})
}

package recovery

import "fmt"

// Outside says what Algorithm 1 (AAAI-2017 appendix) does with a recovered
// point (eta, gamma) that falls outside [0,1]^2.
type Outside int

const (
	// Drop removes the point, as the paper's Algorithm 1 does. With an
	// overestimated alpha-hat nearly every point can fall outside and the
	// curve collapses to the diagonal (AUC 0.5).
	Drop Outside = iota
	// Clip clips both coordinates to [0, 1] before the running maximum, which
	// keeps every threshold.
	Clip
)

// Outsides lists every mode, in the order reports show them.
var Outsides = [...]Outside{Drop, Clip}

// boxEps is how far outside [0,1] a recovered coordinate may lie and still be
// inside: Eqs. 1-2 are evaluated in floating point, and an exact population
// point on the boundary (gamma = 1, say) must not be dropped for a rounding
// error of a few ulps.
const boxEps = 1e-12

// String returns "drop" or "clip".
func (o Outside) String() string {
	switch o {
	case Drop:
		return "drop"
	case Clip:
		return "clip"
	}
	return fmt.Sprintf("Outside(%d)", int(o))
}

// ParseOutside parses "drop" or "clip".
func ParseOutside(s string) (Outside, error) {
	switch s {
	case "drop":
		return Drop, nil
	case "clip":
		return Clip, nil
	}
	return 0, fmt.Errorf("recovery: outside %q: want drop or clip", s)
}

// MarshalText implements encoding.TextMarshaler (for configs and JSON).
func (o Outside) MarshalText() ([]byte, error) {
	if o != Drop && o != Clip {
		return nil, fmt.Errorf("recovery: invalid Outside(%d)", int(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (o *Outside) UnmarshalText(b []byte) error {
	v, err := ParseOutside(string(b))
	if err != nil {
		return err
	}
	*o = v
	return nil
}

// apply maps a recovered point into [0,1]^2 or reports that it is dropped.
func (o Outside) apply(eta, gamma float64) (float64, float64, bool) {
	if o == Drop && !(inBox(eta) && inBox(gamma)) {
		return 0, 0, false
	}
	return clamp(eta, 0, 1), clamp(gamma, 0, 1), true
}

func inBox(v float64) bool { return v >= -boxEps && v <= 1+boxEps }

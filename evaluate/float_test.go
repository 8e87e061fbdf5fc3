package evaluate

import (
	"math"
	"strconv"
	"testing"
)

// TestFormatThreshold: the four cases of a table's threshold cell, by
// definition (none, above every score, undefined, a number).
func TestFormatThreshold(t *testing.T) {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	inf, nan, v := Float(math.Inf(1)), Float(math.NaN()), Float(0.25)
	for _, c := range []struct {
		x    *Float
		want string
	}{{nil, ""}, {&inf, "+Inf"}, {&nan, "-"}, {&v, "0.25"}} {
		if got := FormatThreshold(c.x, "-", g); got != c.want {
			t.Errorf("FormatThreshold(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

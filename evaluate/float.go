package evaluate

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Float is a float64 that JSON-encodes even when it is not finite: NaN (a
// number that could not be computed, e.g. a recovered AUC without valid
// alpha and beta) as null, +Inf (the threshold that predicts nothing
// positive) as the string "+Inf", -Inf as "-Inf". The string forms are what
// Python's float() reads back. It decodes what it encodes.
type Float float64

// MarshalJSON implements json.Marshaler.
func (x Float) MarshalJSON() ([]byte, error) {
	f := float64(x)
	switch {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-Inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// UnmarshalJSON implements json.Unmarshaler: a number, null (NaN), "+Inf"
// or "-Inf".
func (x *Float) UnmarshalJSON(b []byte) error {
	switch s := string(b); s {
	case "null":
		*x = Float(math.NaN())
		return nil
	case `"+Inf"`, `"Inf"`:
		*x = Float(math.Inf(1))
		return nil
	case `"-Inf"`:
		*x = Float(math.Inf(-1))
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("evaluate: %s is not a number, null, \"+Inf\" or \"-Inf\"", b)
	}
	*x = Float(f)
	return nil
}

// Ok reports whether x is a finite number.
func (x Float) Ok() bool { return !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0) }

// FormatThreshold writes a threshold for a table: "" when there is none
// (nil), "+Inf" when it lies above every score (predict nothing positive),
// undefined (e.g. "-") when it could not be computed, else format(x). The
// command line and the HTML page share it and differ in undefined and
// format only.
func FormatThreshold(x *Float, undefined string, format func(float64) string) string {
	switch {
	case x == nil:
		return ""
	case !x.Ok() && float64(*x) > 0:
		return "+Inf"
	case !x.Ok():
		return undefined
	}
	return format(float64(*x))
}

// nan is the Float of a number that could not be computed.
var nan = Float(math.NaN())
var nan64 = math.NaN()

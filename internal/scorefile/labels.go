package scorefile

import (
	"errors"
	"fmt"
	"strings"
)

// PULabel is what a row's label says in PU data.
type PULabel int8

const (
	// Unlabeled: the label is 0 or empty (or -1, with Spec.Negatives set
	// to another value).
	Unlabeled PULabel = iota
	// Labeled: the label is 1 (a labeled positive; a known positive).
	Labeled
	// KnownNegative: the label is Spec.Negatives.
	KnownNegative
)

func (l PULabel) String() string {
	switch l {
	case Unlabeled:
		return "unlabeled"
	case Labeled:
		return "labeled"
	case KnownNegative:
		return "known negative"
	}
	return fmt.Sprintf("PULabel(%d)", int8(l))
}

// LabelKind says how the label column reads.
type LabelKind int8

const (
	// PU labels: 1 labeled, 0 or empty unlabeled, Spec.Negatives (when
	// set) a known negative.
	PU LabelKind = iota
	// Classes: true classes, 1 positive and 0 negative; nothing else.
	Classes
)

// canonLabel is the label s stands for: "1" or "0" for any spelling of
// them (parseLabel's), "-1" for any spelling of exactly -1 ("-1.0",
// "-1e0"), "" for an empty field, and otherwise s lowercased.
func canonLabel(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if one, ok := parseLabel(s); ok {
		if one {
			return "1"
		}
		return "0"
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok && rest != "" && (rest[0] == '.' || '0' <= rest[0] && rest[0] <= '9') {
		if one, ok := parseLabel(rest); ok && one {
			return "-1"
		}
	}
	return strings.ToLower(s)
}

// CheckNegatives checks a value for Spec.Negatives: not empty, and not a
// spelling of 1 (which marks the labeled rows).
func CheckNegatives(v string) error {
	switch canonLabel(v) {
	case "":
		return errors.New("want the label value that marks the known negatives (such as 0 or -1)")
	case "1":
		return fmt.Errorf("%q reads as 1, the label of the labeled rows: the known negatives need another value", v)
	}
	return nil
}

// labelRule reads the label column as a spec says.
type labelRule struct {
	kind     LabelKind
	negative string // canonLabel of Spec.Negatives, "" without
	hint     func(string) string
}

// parse reads the label s.
func (r labelRule) parse(s string) (PULabel, bool) {
	if r.kind == Classes {
		one, ok := parseLabel(strings.TrimSpace(s))
		if one {
			return Labeled, ok
		}
		return Unlabeled, ok
	}
	// The common spellings first: a file of millions of rows is mostly
	// these.
	switch s {
	case "1":
		return Labeled, r.negative != "1"
	case "0":
		if r.negative == "0" {
			return KnownNegative, true
		}
		return Unlabeled, true
	}
	c := canonLabel(s)
	switch {
	case r.negative != "" && c == r.negative:
		return KnownNegative, true
	case c == "1":
		return Labeled, true
	case c == "0" || c == "":
		return Unlabeled, true
	case c == "-1" && r.negative != "":
		return Unlabeled, true
	}
	return 0, false
}

// want says what a label may be, for the error on value v.
func (r labelRule) want(v string) string {
	var s string
	switch {
	case r.kind == Classes:
		s = "is not 0 or 1 (also read: 1.0, 0.0, true, false)"
	case r.negative == "":
		s = "is not 0 or 1 (1: labeled; 0 or empty: unlabeled; also read: 1.0, 0.0, true, false)"
	default:
		var unl []string
		for _, u := range []string{"0", "-1"} {
			if u != r.negative {
				unl = append(unl, u)
			}
		}
		s = fmt.Sprintf("is not 1 (labeled), %q (known negative), or %s or empty (unlabeled)", r.negative, strings.Join(unl, ", "))
	}
	if r.hint != nil {
		s += r.hint(strings.TrimSpace(v))
	}
	return s
}

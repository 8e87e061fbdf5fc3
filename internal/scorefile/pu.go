package scorefile

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// PULabel is a label of a score file with three-valued labels.
type PULabel int8

const (
	// Unlabeled: the label is empty or -1.
	Unlabeled PULabel = iota
	// KnownPositive: the label is 1.
	KnownPositive
	// KnownNegative: the label is 0.
	KnownNegative
)

func (l PULabel) String() string {
	switch l {
	case Unlabeled:
		return "unlabeled"
	case KnownPositive:
		return "known positive"
	case KnownNegative:
		return "known negative"
	}
	return fmt.Sprintf("PULabel(%d)", int8(l))
}

// PUData is the content of a score file with three-valued labels.
type PUData struct {
	Scores []float64
	Labels []PULabel
}

// Count returns the number of rows with label l.
func (d PUData) Count(l PULabel) int {
	n := 0
	for _, x := range d.Labels {
		if x == l {
			n++
		}
	}
	return n
}

// puLabels reads 1 (and its spellings, as in Read) as a known positive, 0
// as a known negative, and an empty field or -1 (any spelling of exactly -1:
// "-1", "-1.0", "-1e0") as unlabeled.
var puLabels = labelSyntax[PULabel]{parsePULabel, "is not 1 (known positive), 0 (known negative), or -1 or empty (unlabeled)"}

func parsePULabel(s string) (PULabel, bool) {
	if s == "" {
		return Unlabeled, true
	}
	if rest, ok := strings.CutPrefix(s, "-"); ok && rest != "" && (rest[0] == '.' || '0' <= rest[0] && rest[0] <= '9') {
		if one, ok := parseLabel(rest); ok && one {
			return Unlabeled, true
		}
		// "-0" and its spellings are 0.
	}
	l, ok := parseLabel(s)
	switch {
	case !ok:
		return 0, false
	case l:
		return KnownPositive, true
	}
	return KnownNegative, true
}

// ReadPUFileContext reads the score file at path with three-valued labels
// (label 1 = known positive, 0 = known negative, empty or -1 = unlabeled),
// otherwise as ReadFileContext: the same header, limits (1 MiB lines,
// MaxRows rows), error messages with file and line, and cancellation.
func ReadPUFileContext(ctx context.Context, path string) (PUData, error) {
	f, err := openContext(ctx, path)
	if err != nil {
		return PUData{}, err
	}
	defer f.Close()
	return ReadPUContext(ctx, f, path)
}

// ReadPUContext is ReadPUFileContext on a reader; name is used in error
// messages.
func ReadPUContext(ctx context.Context, r io.Reader, name string) (PUData, error) {
	scores, labels, err := readContext(ctx, r, name, puLabels)
	return PUData{Scores: scores, Labels: labels}, err
}

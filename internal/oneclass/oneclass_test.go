package oneclass

import (
	"errors"
	"fmt"
	"testing"
)

func TestOneSentinel(t *testing.T) {
	a, b := New("sample needs both classes"), New("targets need both classes")
	wrapped := fmt.Errorf("fold 1 of 5: %w", fmt.Errorf("classifier x: %w", a))
	for _, target := range []error{Err, a, b} {
		if !errors.Is(wrapped, target) {
			t.Errorf("errors.Is(%q, %q) = false", wrapped, target)
		}
	}
	if got := wrapped.Error(); got != "fold 1 of 5: classifier x: sample needs both classes" {
		t.Errorf("text %q: New must keep the package's wording", got)
	}
	if errors.Is(errors.New("sample needs both classes"), a) || errors.Is(errors.New("other"), Err) {
		t.Error("an error that does not wrap Err matches it")
	}
}

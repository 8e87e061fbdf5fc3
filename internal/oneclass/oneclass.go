// Package oneclass holds the one error that pueval returns, wrapped, when a
// sample or a set of training targets holds a single class: the metrics
// (no positives or no negatives to rank), the classifiers and their
// trainers (nothing to separate). errors.Is(err, oneclass.Err) finds it
// whichever package raised it.
//
// It is a leaf that every package may import, like internal/portmath: the
// packages that raise the error (metrics, classifiers/gbdt, classifiers/svm)
// may import nothing else of the module, so no one of them can own it.
//
// Each package keeps its own wording, because error texts end up in the
// records of failed cells, whose bits must not change: New makes an error
// with a package's text that is, for errors.Is, the same error as Err and as
// every other error New made.
package oneclass

import "errors"

// Err is the sentinel: every error New returns wraps it.
var Err = errors.New("needs at least one example of each class")

// New returns an error whose text is text and that errors.Is matches
// against Err and against every other error New returned, so that a
// package's ErrOneClass finds the one-class error of any other package.
func New(text string) error { return &wording{text} }

// wording is one package's text for Err.
type wording struct{ text string }

func (e *wording) Error() string { return e.text }

// Unwrap makes errors.Is(e, Err) true.
func (e *wording) Unwrap() error { return Err }

// Is makes errors.Is(e, other) true for every other package's wording.
func (e *wording) Is(target error) bool {
	_, ok := target.(*wording)
	return ok
}

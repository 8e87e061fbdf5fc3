// Package pueval is the root of the pueval module, a harness that reproduces
// the experiments of five papers on measuring classifiers from
// positive-unlabeled (PU) data and recovers the true ROC, PR, AUC, accuracy,
// F1, MCC and related measures of a practitioner's classifier from PU data.
//
// The root package holds no code; it documents the architecture and its test
// (arch_test.go) enforces it. Data flows one way:
//
//	config -> datasets -> PU split -> classifier scores -> class-prior estimates
//	       -> metrics -> recovered metrics -> results -> report
//
// Each stage is a package that does not import the stages around it; only
// experiments (the runner), the command line (cli) and the papers
// (papers/NAME, which build on the core and which the core never imports)
// see everything. The allowed module-internal imports of every package are
// listed in arch_test.go, so a new package or a new edge between packages is
// a deliberate, reviewed change.
// Randomness comes from math/rand/v2 streams passed explicitly; math/rand (v1)
// is banned.
package pueval

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/internal/benchevaluate"
)

// A result written with -json reads back with -from into the same tables.
func TestFromRoundTrip(t *testing.T) {
	m := evaluate.Metric{Recovered: 0.8, Interval: &evaluate.Interval{Low: 0.7, High: 0.9}}
	rr := &benchevaluate.RunResult{Mode: "estimated", Metrics: evaluate.Metrics{AUC: m, AUCPR: m, F1: m, MCC: m},
		Warnings: []evaluate.Warning{{Code: "few-scores"}}}
	res := &benchevaluate.Result{Schema: benchevaluate.Schema, Design: "hand", Seed: 1, Bootstrap: 200, Cases: []benchevaluate.CaseResult{{
		ID:    "toy/n150/c0.1/a0.3/b1/r0/logreg/raw",
		Case:  benchevaluate.Case{Split: benchevaluate.Split{Source: "toy", N: 150, C: 0.1, Alpha: 0.3, Beta: 1}, Model: "logreg", Scale: "raw"},
		Alpha: 0.3, Beta: 1, Truth: evaluate.Headline{AUC: 0.85, AUCPR: 0.7, F1: 0.75, MCC: 0.6},
		Estimated: rr, Given: rr,
	}}}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := writeResult(path, res); err != nil {
		t.Fatal(err)
	}
	var direct, from bytes.Buffer
	benchevaluate.WriteTables(&direct, res)
	if err := run(context.Background(), []string{"-from", path}, &from, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if direct.String() != from.String() {
		t.Errorf("-from gives\n%s\nthe run gave\n%s", from.String(), direct.String())
	}
	if !strings.Contains(from.String(), "| few-scores") {
		t.Errorf("no warnings table:\n%s", from.String())
	}
	os.WriteFile(path, []byte(`{"schema": "other/1"}`), 0o644)
	if err := run(context.Background(), []string{"-from", path}, &from, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "other/1") {
		t.Errorf("another schema read: %v", err)
	}
}

func TestFlagsRefused(t *testing.T) {
	for _, args := range [][]string{{"-j", "0"}, {"-bootstrap", "0"}, {"-set", "both"}, {"-max-rows", "-1"}, {"extra"}, {"-design", "big"}, {"-cases", "("}} {
		var stderr bytes.Buffer
		if err := run(context.Background(), args, &bytes.Buffer{}, &stderr); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/reference"
	"github.com/pueval/pueval/experiments/results"
)

// verifyHelp is the longer help of pueval verify.
const verifyHelp = `DIR is a results directory (records.jsonl and manifest.json). Its records are compared, cell by
cell, with the digests of a reference run of the same config: by default those its paper ships for
the built-in config the directory ran (papers/P/reference/CONFIG.digests, or .digests.gz), else
--reference FILE. A record's digest leaves out its timings, training work and kernel name;
everything else must be the same bits, which pueval promises on every CPU, for any -j. verify prints
"identical to the reference run (N cells)", or the cells that differ with the field groups that
differ in them (metrics.auc, estimates.alphamax-n, ...), the cells missing and those the reference
lacks, and the likely causes the manifests show (another config and the settings that differ, other
data and the data sets whose fingerprints differ, another code version). Cells outside the run's
selection (--repeats, --datasets, --shard) or of a data set the run could not use are not counted
against it, nor are cells of a data set the reference run could not use. Exit status 0 when
identical (or when there is no reference to compare with, which it says), 1 when anything differs.

--write-reference FILE writes the digests of DIR (a finished run of the whole grid) to FILE instead,
gzip-compressed when FILE ends in .gz: how a paper's reference digests are made (make
reference-digests).`

// verifyMaxCells bounds the cells of each kind pueval verify lists.
const verifyMaxCells = 20

func runVerify(ctx context.Context, e *env, args []string) error {
	fs := flagSet("verify")
	refFile := fs.String("reference", "", "compare with this digest `file` instead of the built-in config's")
	write := fs.String("write-reference", "", "write the digests of DIR to this `file` instead of comparing (.gz: compressed)")
	dir, help, err := parseWithPositional(e, fs, args, "results directory")
	if help || err != nil {
		return err
	}
	recs, man, err := readRun(dir)
	if err != nil {
		return err
	}
	if *write != "" {
		return writeReference(e, dir, *write, recs, man)
	}
	ref, err := loadReference(*refFile, experimentName(recs, man))
	if err != nil {
		return err
	}
	if ref.missing != "" {
		fmt.Fprintf(e.stdout, "%s: %s\n", dir, ref.missing)
		return nil
	}
	res, err := reference.Compare(ref.ref, recs, man)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	fmt.Fprintf(e.stdout, "%s: %s", dir, res.Text(verifyMaxCells))
	if !res.OK() {
		return fmt.Errorf("pueval: verify: %s differs from the reference run (%s)", dir, ref.ref.Source)
	}
	return nil
}

// readRun reads a results directory's records and manifest (the zero
// manifest when it has none).
func readRun(dir string) ([]results.Record, results.Manifest, error) {
	recs, err := results.ReadRecords(dir)
	if err != nil {
		return nil, results.Manifest{}, err
	}
	if len(recs) == 0 {
		return nil, results.Manifest{}, fmt.Errorf("%s: no records", dir)
	}
	man, err := results.ReadManifest(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, results.Manifest{}, err
	}
	return recs, man, nil
}

// experimentName names the run's experiment: the manifest's, else the records'.
func experimentName(recs []results.Record, man results.Manifest) string {
	if man.Experiment != "" {
		return man.Experiment
	}
	return recs[0].Experiment
}

// loadedReference is a reference to compare with, or (missing) why there
// is none.
type loadedReference struct {
	ref     *reference.Reference
	missing string
}

// loadReference reads the digest file path, or without one the digests
// shipped with the built-in config experiment.
func loadReference(path, experiment string) (loadedReference, error) {
	var data []byte
	var source string
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return loadedReference{}, fmt.Errorf("--reference: %w", err)
		}
		data, source = b, path
	} else {
		b, src, ok, err := experiments.ReferenceDigests(experiment)
		if err != nil {
			return loadedReference{}, err
		}
		if !ok {
			return loadedReference{missing: noReference(experiment)}, nil
		}
		data, source = b, src
	}
	ref, err := reference.Read(bytes.NewReader(data), source)
	if err != nil {
		return loadedReference{}, err
	}
	return loadedReference{ref: ref}, nil
}

// noReference says that experiment has no reference digests to compare with.
func noReference(experiment string) string {
	dir, builtin := experiments.BuiltinDir(experiment)
	switch {
	case !builtin:
		return fmt.Sprintf("no reference digests for experiment %s (only the built-in configs ship them; --reference FILE compares with a digest file)", experiment)
	case strings.HasSuffix(experiment, "-smoke"):
		return fmt.Sprintf("no reference digests for the smoke run %s (%s ships none)", experiment, dir)
	}
	return fmt.Sprintf("no reference digests for the full run of %s (%s ships none)", experiment, dir)
}

// writeReference writes the digests of the finished run in dir to path.
func writeReference(e *env, dir, path string, recs []results.Record, man results.Manifest) error {
	ref, err := reference.FromRun(recs, man)
	if err != nil {
		return fmt.Errorf("%s: --write-reference: %w", dir, err)
	}
	encode := ref.Bytes
	if strings.HasSuffix(path, ".gz") {
		encode = ref.Gzipped
	}
	b, err := encode()
	if err != nil {
		return err
	}
	if err := results.WriteFileAtomic(path, b); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: the digests of %d cells written to %s\n", dir, len(ref.Cells), path)
	return nil
}

// verification is the one-line verdict of a run against its reference,
// for the report and the landing page, and whether it is a problem (a
// difference, not a missing reference).
func verification(dir string, recs []results.Record, man results.Manifest) (line string, problem bool) {
	ref, err := loadReference("", experimentName(recs, man))
	if err != nil {
		return "the reference digests could not be read: " + err.Error(), true
	}
	if ref.missing != "" {
		return ref.missing, false
	}
	res, err := reference.Compare(ref.ref, recs, man)
	if err != nil {
		return fmt.Sprintf("%s: %v", dir, err), true
	}
	return res.Line(), !res.OK()
}

package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/pueval/pueval/experiments"
	"github.com/pueval/pueval/experiments/results"
)

func runMerge(ctx context.Context, e *env, args []string) error {
	fs := flagSet("merge")
	config := fs.String("config", "", "the `config` the shards ran (a file or a built-in name; default: the one their manifest names)")
	partial := fs.Bool("partial", false, "merge shards that lack cells (unfinished or not given) instead of refusing; the manifest then has no finish time")
	pos, help, err := parseInterleaved(e, fs, args)
	if help || err != nil {
		return err
	}
	if len(pos) < 2 {
		return fmt.Errorf("want the output directory and at least one shard directory (see 'pueval merge -h')")
	}
	out, dirs := pos[0], pos[1:]
	cfg, err := shardConfig(*config, dirs[0])
	if err != nil {
		return err
	}
	sum, err := results.Merge(out, dirs, results.MergeOptions{
		ConfigKey: cfg.KeyHash(),
		Settings:  cfg.Settings(),
		Cells: func(sel results.Selection) ([]results.CellRef, error) {
			cells, err := cfg.Cells(experiments.Selection{Repeats: sel.Repeats, Datasets: sel.Datasets, Shard: sel.Shard, Shards: sel.Shards})
			if err != nil {
				return nil, err
			}
			refs := make([]results.CellRef, len(cells))
			for i, c := range cells {
				refs[i] = results.CellRef{ID: c.ID, Dataset: c.Dataset.Name, Grid: c.GridTexts(), Repeat: c.Repeat,
					Seed: strconv.FormatUint(c.Seed, 10)}
			}
			return refs, nil
		},
		Partial: *partial,
		Machine: experiments.Machine(),
	})
	var missing *results.MissingCellsError
	if errors.As(err, &missing) {
		return fmt.Errorf("%w (--partial merges what there is)", err)
	}
	if err != nil {
		return err
	}
	for _, w := range sum.Warnings {
		fmt.Fprintf(e.stderr, "pueval: merge: %s\n", w)
	}
	var shards []string
	for _, s := range sum.Shards {
		shards = append(shards, s.Shard+" on "+s.Machine.Host)
	}
	fmt.Fprintf(e.stderr, "pueval: merged %d shards (%s) into %s: %d records in grid order (%d failed)",
		len(sum.Shards), strings.Join(shards, ", "), out, sum.Records, sum.Failed)
	if sum.Missing > 0 {
		fmt.Fprintf(e.stderr, "; %d cells missing (--partial): merge again when the shards are complete", sum.Missing)
	}
	fmt.Fprintln(e.stderr)
	return nil
}

// shardConfig loads the config the shards ran: the one given, else the one
// the first shard's manifest names (a built-in config by its name; a file
// by its absolute path, or, in a manifest of an older pueval, by a path
// relative to where the run started: see resolveRelativeConfig).
func shardConfig(given, firstShard string) (*experiments.Config, error) {
	path := given
	if path == "" {
		man, err := results.ReadManifest(firstShard)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("shard %s has no %s: not a pueval results directory, or its run never started", firstShard, results.ManifestFile)
		}
		if err != nil {
			return nil, fmt.Errorf("shard %s: %w", firstShard, err)
		}
		path = configPathOf(man.Config)
		if _, builtin := experiments.BuiltinName(man.Config); !builtin && !filepath.IsAbs(path) {
			if path, err = resolveRelativeConfig(path, firstShard, man.ConfigHash); err != nil {
				return nil, err
			}
		}
	}
	cat, err := (&datasetsOpts{}).readCatalog()
	if err != nil {
		return nil, err
	}
	cfg, err := experiments.ReadConfig(path, loadOptions(cat.Names()))
	if err != nil {
		if given == "" {
			return nil, fmt.Errorf("the config of shard %s (merge expands its grid): %w; name it with --config", firstShard, err)
		}
		return nil, err
	}
	return cfg, nil
}

// resolveRelativeConfig finds the config file a manifest names by a path
// relative to the directory its run started in, which the manifest does not
// record: the path from the current directory, then from the shard
// directory and each of its parents (a run writes into DIR/results/NAME or
// the like below where it started). The file taken is the first whose
// sha256 is the manifest's config hash, so an edited or unrelated file of
// that name is never read as the config.
func resolveRelativeConfig(rel, shard, hash string) (string, error) {
	candidates := []string{rel}
	if abs, err := filepath.Abs(shard); err == nil {
		for d := abs; ; d = filepath.Dir(d) {
			candidates = append(candidates, filepath.Join(d, rel))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	var differ []string
	for _, c := range candidates {
		b, err := readConfigBytes(c)
		if err != nil {
			continue
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) == hash {
			return c, nil
		}
		if !slices.Contains(differ, c) {
			differ = append(differ, c)
		}
	}
	msg := fmt.Sprintf("shard %s's manifest names its config by the relative path %s (a pueval before absolute paths wrote it), "+
		"and no file of that path from the current directory, the shard directory or its parents has the config's sha256 %.12s",
		shard, rel, hash)
	if len(differ) > 0 {
		msg += " (" + strings.Join(differ, ", ") + " differ: edited since the run?)"
	}
	return "", errors.New(msg + ": name the config with --config")
}

// readConfigBytes reads a file of at most experiments.MaxConfigSize bytes.
func readConfigBytes(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, experiments.MaxConfigSize+1))
	if err == nil && len(b) > experiments.MaxConfigSize {
		err = fmt.Errorf("%s: larger than a config", path)
	}
	return b, err
}

// configPathOf turns a manifest's config field back into what ReadConfig
// takes: a path, or for a built-in config ("papers/P/NAME.yaml (embedded)")
// its name.
func configPathOf(source string) string {
	if name, ok := experiments.BuiltinName(source); ok {
		return name
	}
	return source
}

// parseInterleaved parses flags that may come before, between or after
// positional arguments, and returns the positional ones.
func parseInterleaved(e *env, fs *flag.FlagSet, args []string) (pos []string, help bool, err error) {
	for {
		if help, err = parseFlags(e, fs, args); help || err != nil {
			return nil, help, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, false, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
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
// the first shard's manifest names (a built-in config by its name).
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

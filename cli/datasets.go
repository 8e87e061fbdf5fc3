package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/pueval/pueval/configs"
	"github.com/pueval/pueval/datasets"
)

// `pueval datasets` has sub-commands of its own, dispatched here.
type datasetsSub struct {
	name, args, summary string
	run                 func(ctx context.Context, e *env, o *datasetsOpts, names []string) error
	loads               bool // takes --cache and --mirror, and NAMEs
	json                bool // takes --json
	looks               bool // takes --cache and --mirror (looks for files without loading them)
}

var datasetsSubs = []datasetsSub{
	{"list", "[--json] [--catalog FILE] [--cache DIR] [--mirror DIR|URL]", "list the catalogued data sets with their papers, rules, expected sizes and which of their files are in the cache or the mirror (reads and fetches no data)", runDatasetsList, false, true, true},
	{"describe", "[--json] [--catalog FILE] [--cache DIR] [--mirror DIR|URL] [NAME...]", "load data sets (all by default) and report n, n_pos, d, fingerprint, completeness, missing files and warnings", runDatasetsDescribe, true, true, false},
	{"verify", "[--catalog FILE] [--cache DIR] [--mirror DIR|URL] [NAME...]", "re-parse data sets from their raw files and check every fingerprint; fails if any does not verify", runDatasetsVerify, true, false, false},
	{"fetch", "[--catalog FILE] [--cache DIR] [--mirror DIR|URL] [NAME...]", "copy or download the raw files of data sets into the cache", runDatasetsFetch, true, false, false},
	{"export", "NAME -o FILE [--labeled-fraction F] [--seed S] [--truth COLUMN] [--catalog FILE] [--cache DIR] [--mirror DIR|URL]", "write a data set as a positive-unlabeled feature CSV (a random fraction of the positives labeled, SCAR), the input of pueval evaluate", runDatasetsExport, true, false, false},
}

type datasetsOpts struct {
	catalog, cache, mirror string
	json                   bool
	export                 exportOpts
}

func printDatasetsUsage(w io.Writer) {
	c, _ := lookup("datasets")
	fmt.Fprintf(w, "Usage: pueval datasets %s\n\n%s.\n\nSub-commands:\n", c.args, upperFirst(c.aboutText()))
	t := newTable(w)
	for _, s := range datasetsSubs {
		t.row("  "+s.name, s.summary)
	}
	t.flush()
	fmt.Fprintf(w, "\nData come from the cache ($%s, default $XDG_CACHE_HOME/pueval or ~/.cache/pueval),\n"+
		"else from $%s (a directory or http(s) URL laid out like %s; default: that URL).\n"+
		"Run 'pueval datasets SUB -h' for the flags of a sub-command.\n", datasets.EnvData, datasets.EnvMirror, datasets.DefaultMirror)
}

func runDatasets(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		printDatasetsUsage(e.stderr)
		return errors.New("no sub-command given (list, describe, verify, fetch or export)")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		printDatasetsUsage(e.stdout)
		return nil
	}
	var sub *datasetsSub
	for i := range datasetsSubs {
		if datasetsSubs[i].name == args[0] {
			sub = &datasetsSubs[i]
		}
	}
	if sub == nil {
		return fmt.Errorf("unknown sub-command %q (want list, describe, verify, fetch or export)", args[0])
	}
	fs := flag.NewFlagSet("datasets "+sub.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o := &datasetsOpts{}
	fs.StringVar(&o.catalog, "catalog", "", "catalog `file` (default: the built-in configs/datasets.yaml)")
	if sub.loads || sub.looks {
		fs.StringVar(&o.cache, "cache", "", "cache `dir` (default: $"+datasets.EnvData+", else $XDG_CACHE_HOME/pueval or ~/.cache/pueval)")
		fs.StringVar(&o.mirror, "mirror", "", "archive mirror, a `dir or URL` (default: $"+datasets.EnvMirror+", else "+datasets.DefaultMirror+")")
	}
	if sub.json {
		fs.BoolVar(&o.json, "json", false, "print JSON instead of a table")
	}
	if sub.name == "export" {
		o.export.flags(fs)
	}
	err := fs.Parse(args[1:])
	if sub.name == "export" {
		// export NAME -o FILE: the name may come before the flags.
		var rest []string
		for err == nil && fs.NArg() > 0 {
			rest = append(rest, fs.Arg(0))
			err = fs.Parse(fs.Args()[1:])
		}
		if err == nil {
			fs.Parse(append([]string{"--"}, rest...))
		}
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintf(e.stdout, "Usage: pueval datasets %s %s\n\n%s.\n\nFlags:\n", sub.name, sub.args, upperFirst(sub.summary))
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %v (see 'pueval datasets %s -h')", sub.name, err, sub.name)
	}
	if !sub.loads && fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", sub.name, fs.Arg(0))
	}
	if err := sub.run(ctx, e, o, fs.Args()); err != nil {
		return fmt.Errorf("%s: %w", sub.name, err)
	}
	return nil
}

func (o *datasetsOpts) readCatalog() (*datasets.Catalog, error) {
	if o.catalog != "" {
		return datasets.ReadCatalogFile(o.catalog)
	}
	return datasets.ReadCatalogFS(configs.FS, configs.DatasetsFile)
}

// open returns the catalog, a store, and the data sets named (all when
// none is), checking that every name is catalogued.
func (o *datasetsOpts) open(e *env, names []string) (*datasets.Store, []string, error) {
	cat, err := o.readCatalog()
	if err != nil {
		return nil, nil, err
	}
	opts, err := datasets.DefaultOptions()
	if err != nil && o.cache == "" {
		return nil, nil, err
	}
	if o.cache != "" {
		opts.CacheDir = o.cache
	}
	if o.mirror != "" {
		opts.Mirror = o.mirror
	}
	opts.Log = e.stderr
	st, err := datasets.Open(cat, opts)
	if err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		return st, cat.Names(), nil
	}
	for _, n := range names {
		if _, ok := cat.Lookup(n); !ok {
			return nil, nil, fmt.Errorf("unknown data set %q (catalogued: %s)", n, strings.Join(cat.Names(), ", "))
		}
	}
	return st, names, nil
}

// listRow is one object of `list --json`. Availability comes from looking
// for each file in the cache and the mirror (datasets.Store.Availability),
// not from the catalog alone: a catalog entry says what the project's
// mirror had when it was written, while the files at hand decide whether a
// data set loads, and whether it loads complete.
type listRow struct {
	Name     string          `json:"name"`
	Title    string          `json:"title"`
	Papers   []string        `json:"papers"`
	Rule     string          `json:"rule"`
	Expected datasets.Counts `json:"expected"`
	// Available: every required file was found, so the data set loads
	// (complete or partial).
	Available   bool   `json:"available"`
	Unavailable string `json:"unavailable,omitempty"` // the catalog's reason
	// Availability is complete, partial, missing, unknown or no-parser;
	// InMirror is the table's text for it ("partial: 8 of 10 files").
	Availability string   `json:"availability"`
	InMirror     string   `json:"in_mirror"`
	FilesFound   int      `json:"files_found"`
	FilesTotal   int      `json:"files_total"`
	MissingFiles []string `json:"missing_files,omitempty"`
	Files        []string `json:"files"`
}

func runDatasetsList(ctx context.Context, e *env, o *datasetsOpts, _ []string) error {
	st, _, err := o.open(e, nil)
	if err != nil {
		return err
	}
	avail, err := st.Availability(ctx)
	if err != nil {
		return err
	}
	var rows []listRow
	for i, s := range st.Catalog().Datasets {
		a := avail[i]
		r := listRow{Name: s.Name, Title: s.Title, Papers: s.Papers, Rule: s.Rule, Expected: s.Expect,
			Available:    a.State == datasets.AvailComplete || a.State == datasets.AvailPartial,
			Unavailable:  s.Unavailable,
			Availability: a.State, InMirror: a.Summary(), FilesFound: a.Found, FilesTotal: a.Total,
			MissingFiles: a.Missing()}
		for _, f := range s.Files {
			r.Files = append(r.Files, f.Path)
		}
		rows = append(rows, r)
	}
	if o.json {
		return writeJSON(e.stdout, rows)
	}
	t := newTable(e.stdout)
	t.row("name", "papers", "rule", "n_pos", "n", "d", "in mirror", "title")
	for _, r := range rows {
		t.row(r.Name, strings.Join(r.Papers, ","), r.Rule, r.Expected.NPos, r.Expected.N, r.Expected.D, r.InMirror, r.Title)
	}
	return t.flush()
}

// describeRow is one object of `describe --json`. N, NPos and D are
// measured on the loaded data (0 when it could not be loaded; Expected
// has the catalog's numbers).
type describeRow struct {
	Name        string          `json:"name"`
	Status      string          `json:"status"` // ok, unavailable or error
	N           int             `json:"n"`
	NPos        int             `json:"n_pos"`
	D           int             `json:"d"`
	Fingerprint string          `json:"fingerprint"`
	Complete    bool            `json:"complete"`
	Notes       string          `json:"notes"`
	Warnings    []string        `json:"warnings,omitempty"`
	Error       string          `json:"error,omitempty"`
	Expected    datasets.Counts `json:"expected"`
	Papers      []string        `json:"papers"`
	Rule        string          `json:"rule"`
	Columns     map[string]int  `json:"columns,omitempty"` // count per kind: numeric, binary, onehot
	// Missing lists the files not found: the optional ones a partial data
	// set loaded without, or, when loading failed for want of a file, every
	// file of the data set that is in neither the cache nor the mirror.
	Missing []string            `json:"missing,omitempty"`
	Files   []datasets.FileInfo `json:"files,omitempty"`
}

func describe(sp *datasets.Spec, ds *datasets.Dataset, err error) describeRow {
	r := describeRow{Name: sp.Name, Status: "ok", Notes: strings.TrimSpace(sp.Notes), Expected: sp.Expect, Papers: sp.Papers, Rule: sp.Rule}
	switch {
	case errors.Is(err, datasets.ErrUnavailable):
		r.Status, r.Error = "unavailable", err.Error()
		return r
	case err != nil:
		r.Status, r.Error = "error", err.Error()
		return r
	}
	r.N, r.NPos, r.D, r.Fingerprint, r.Complete = ds.N, ds.NPos, ds.D, ds.Fingerprint, ds.Complete
	r.Warnings, r.Missing, r.Files = ds.Warnings, ds.Missing, ds.Files
	r.Columns = map[string]int{}
	for _, c := range ds.Columns {
		r.Columns[c.Kind.String()]++
	}
	return r
}

func runDatasetsDescribe(ctx context.Context, e *env, o *datasetsOpts, names []string) error {
	st, names, err := o.open(e, names)
	if err != nil {
		return err
	}
	rows := make([]describeRow, 0, len(names))
	failed := 0
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		sp, _ := st.Catalog().Lookup(n)
		ds, err := st.Load(ctx, n)
		r := describe(sp, ds, err)
		var me *datasets.MissingFileError
		if errors.As(err, &me) {
			// The error names the first missing file only: list them all.
			if a, aerr := st.Availability(ctx, n); aerr == nil {
				r.Missing = a[0].Missing()
			}
		}
		if r.Status == "error" {
			failed++
		}
		rows = append(rows, r)
	}
	if o.json {
		if err := writeJSON(e.stdout, rows); err != nil {
			return err
		}
	} else {
		t := newTable(e.stdout)
		t.row("name", "n_pos", "n", "d", "complete", "fingerprint", "status")
		for _, r := range rows {
			status := r.Status
			if r.Error != "" {
				status += ": " + r.Error
				if len(r.Missing) > 0 {
					status += "; missing: " + strings.Join(r.Missing, ", ")
				}
			}
			for _, w := range r.Warnings {
				status += "; warning: " + w
			}
			fp := r.Fingerprint
			if len(fp) > 12 {
				fp = fp[:12]
			}
			t.row(r.Name, r.NPos, r.N, r.D, r.Complete, fp, status)
		}
		if err := t.flush(); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d data sets failed to load (see the error fields)", failed, len(rows))
	}
	return nil
}

func runDatasetsVerify(ctx context.Context, e *env, o *datasetsOpts, names []string) error {
	st, names, err := o.open(e, names)
	if err != nil {
		return err
	}
	failed := 0
	t := newTable(e.stdout)
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		ds, err := st.Verify(ctx, n)
		switch {
		case errors.Is(err, datasets.ErrUnavailable):
			t.row(n, "SKIP", err.Error())
		case err != nil:
			failed++
			t.row(n, "FAIL", err.Error())
		default:
			note := fmt.Sprintf("n_pos/n/d %d/%d/%d, fingerprint %s", ds.NPos, ds.N, ds.D, ds.Fingerprint)
			for _, w := range ds.Warnings {
				note += "; warning: " + w
			}
			t.row(n, "ok", note)
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d data sets did not verify", failed, len(names))
	}
	return nil
}

func runDatasetsFetch(ctx context.Context, e *env, o *datasetsOpts, names []string) error {
	st, names, err := o.open(e, names)
	if err != nil {
		return err
	}
	failed := 0
	t := newTable(e.stdout)
	for _, n := range names {
		if err := ctx.Err(); err != nil {
			return err
		}
		files, err := st.Fetch(ctx, n)
		for _, f := range files {
			if f.Missing {
				t.row(n, "missing (optional)", f.Path)
			} else {
				t.row(n, "cached", f.Local)
			}
		}
		switch {
		case errors.Is(err, datasets.ErrUnavailable):
			t.row(n, "SKIP", err.Error())
		case err != nil:
			failed++
			t.row(n, "FAIL", err.Error())
		}
	}
	if err := t.flush(); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d data sets could not be fetched", failed, len(names))
	}
	return nil
}

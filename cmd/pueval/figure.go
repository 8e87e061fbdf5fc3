package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/pueval/pueval/report"
)

func runFigure(ctx context.Context, e *env, args []string) error {
	fs := flagSet("figure")
	out := fs.String("out", "", "output `directory` (created if needed)")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		if help {
			fmt.Fprintln(e.stdout, "\nFigures:")
			for _, f := range report.Figures() {
				fmt.Fprintf(e.stdout, "  %-14s %s\n", f.Name, f.About)
			}
		}
		return err
	}
	// Accept the name before or after the flags.
	rest := fs.Args()
	if len(rest) == 0 {
		var names []string
		for _, f := range report.Figures() {
			names = append(names, f.Name)
		}
		return fmt.Errorf("name a figure: %s", strings.Join(names, ", "))
	}
	name := rest[0]
	if err := fs.Parse(rest[1:]); err != nil {
		return fmt.Errorf("%v (see 'pueval figure -h')", err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return errors.New("--out DIR is required")
	}
	files, notes, err := report.WriteAnalyticFigure(name, *out)
	if err != nil {
		return err
	}
	for _, f := range files {
		fmt.Fprintln(e.stdout, f)
	}
	for _, n := range notes {
		fmt.Fprintln(e.stdout, "note:", n)
	}
	return nil
}

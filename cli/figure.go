package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pueval/pueval/report"
)

func runFigure(ctx context.Context, e *env, args []string) error {
	fs := flagSet("figure")
	out := fs.String("out", "", "output `directory` (created if needed)")
	// Accept the name before or after the flags: parse the flags, take the
	// name, parse the flags after it.
	help, err := parseFlags(e, fs, args)
	var name string
	if !help && err == nil {
		rest := fs.Args()
		if len(rest) == 0 {
			if len(figureNames()) == 0 {
				return errors.New("name a figure: this binary has none (it imports no paper that registers figures)")
			}
			return fmt.Errorf("name a figure: %s", strings.Join(figureNames(), ", "))
		}
		name = rest[0]
		help, err = parseFlags(e, fs, rest[1:])
	}
	if help || err != nil {
		if help {
			fmt.Fprintln(e.stdout, "\nFigures:")
			for _, f := range report.Figures() {
				fmt.Fprintf(e.stdout, "  %-14s %s\n", f.Name, f.About)
			}
		}
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	// Check the name before anything is created.
	if known := figureNames(); !slices.Contains(known, name) {
		return fmt.Errorf("unknown figure %q (known: %s)", name, strings.Join(known, ", "))
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

// figureNames lists the registered analytic figures (report.Figures, filled
// by the papers the binary imports: cmd/pueval's plugins.go).
func figureNames() []string {
	var names []string
	for _, f := range report.Figures() {
		names = append(names, f.Name)
	}
	return names
}

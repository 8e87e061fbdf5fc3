package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"text/tabwriter"

	"github.com/pueval/pueval/evaluate"
	"github.com/pueval/pueval/metrics"
)

// number is a float64 that encodes to JSON even when infinite or NaN: a
// threshold of +Inf (predict nothing positive) is written as the string
// "+Inf", which Python's float() and most JSON consumers read back; NaN as null.
type number float64

func (x number) MarshalJSON() ([]byte, error) { return evaluate.Float(x).MarshalJSON() }

// UnmarshalJSON reads what MarshalJSON writes (for tests and consumers
// written in Go).
func (x *number) UnmarshalJSON(b []byte) error {
	var f evaluate.Float
	if err := f.UnmarshalJSON(b); err != nil {
		return err
	}
	*x = number(f)
	return nil
}

func (x number) String() string { return strconv.FormatFloat(float64(x), 'g', 6, 64) }

// optimum is the JSON form of metrics.Optimum.
type optimum struct {
	Value     number `json:"value"`
	Threshold number `json:"threshold"`
}

func optimumOf(o metrics.Optimum) optimum { return optimum{number(o.Value), number(o.Threshold)} }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// table writes aligned key/value rows.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer) *table { return &table{tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)} }

func (t *table) row(cols ...any) {
	for i, c := range cols {
		if i > 0 {
			fmt.Fprint(t.tw, "\t")
		}
		switch v := c.(type) {
		case float64:
			fmt.Fprint(t.tw, number(v))
		default:
			fmt.Fprint(t.tw, v)
		}
	}
	fmt.Fprintln(t.tw)
}

func (t *table) flush() error { return t.tw.Flush() }

// noArgs refuses the arguments left after the flags of a command that takes
// none: the flag package stops at the first of them, so the flags after it
// would otherwise be dropped unseen.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see 'pueval %s -h')", fs.Arg(0), fs.Name())
	}
	return nil
}

// stopped returns an error wrapping the cause of ctx's end when ctx is done
// (SIGINT or SIGTERM, in Main), nil while it is not: the commands check it
// between the steps that take long on big inputs.
func stopped(ctx context.Context) error {
	if ctx.Err() != nil {
		return fmt.Errorf("stopped: %w", context.Cause(ctx))
	}
	return nil
}

// formatUsage is the help of the practitioner commands' --format flag.
const formatUsage = "output `format`: json or table (default: table on a terminal, json otherwise, e.g. when piped)"

// resolveFormat checks --format and gives its default: a table when stdout
// is a terminal (a person reads it), JSON otherwise (a program reads it).
func resolveFormat(e *env, f *string) error {
	if *f == "" {
		*f = "json"
		if isTerminal(e.stdout) {
			*f = "table"
		}
	}
	if *f != "json" && *f != "table" {
		return fmt.Errorf("--format %q: want json or table", *f)
	}
	return nil
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && fileIsTerminal(f)
}

// parseInputFlags parses the flags of a command that reads one --input file
// and writes in --format (metrics, correct, estimate, evaluate): -h as
// parseFlags answers it, then no positional argument, a non-empty --input
// and a known --format.
func parseInputFlags(e *env, fs *flag.FlagSet, args []string, input, format *string) (help bool, err error) {
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return help, err
	}
	if err := noArgs(fs); err != nil {
		return false, err
	}
	if *input == "" {
		return false, errors.New("--input is required")
	}
	return false, resolveFormat(e, format)
}

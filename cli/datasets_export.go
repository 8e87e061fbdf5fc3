package cli

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/pueval/pueval/datasets/pusplit"
)

// exportOpts are the flags of `pueval datasets export`.
type exportOpts struct {
	out      string
	fraction float64
	seed     uint64
	truth    string
}

func (x *exportOpts) flags(fs *flag.FlagSet) {
	fs.StringVar(&x.out, "o", "", "write the CSV to `file` (required)")
	fs.Float64Var(&x.fraction, "labeled-fraction", 0.3, "the `fraction` of the positives labeled (drawn at random, SCAR); the other positives and every negative are unlabeled")
	fs.Uint64Var(&x.seed, "seed", 1, "`seed` of the draw of the labeled positives")
	fs.StringVar(&x.truth, "truth", "", "also write each row's true class into this `column` (1 positive, 0 negative), for pueval evaluate --truth; empty: none")
}

// runDatasetsExport writes one data set as a PU feature CSV: its encoded
// features (one-hot columns as 0/1), a "label" column that is 1 for a
// random labeled fraction of the positives (pusplit.SCARFraction, the AUL
// paper's protocol: clean labels, beta = 1) and 0 for the rest, and with
// --truth the true class, in the data set's row order.
func runDatasetsExport(ctx context.Context, e *env, o *datasetsOpts, names []string) error {
	x := o.export
	switch {
	case len(names) != 1:
		return errors.New("name one data set (see pueval datasets list)")
	case x.out == "":
		return errors.New("-o FILE is required")
	case !(x.fraction > 0 && x.fraction < 1):
		return fmt.Errorf("--labeled-fraction %v: want a fraction in (0, 1)", x.fraction)
	}
	st, names, err := o.open(e, names)
	if err != nil {
		return err
	}
	d, err := st.Load(ctx, names[0])
	if err != nil {
		return err
	}
	split, err := pusplit.SCARFraction(rand.New(rand.NewPCG(x.seed, 0)), d.Y, x.fraction)
	if err != nil {
		return fmt.Errorf("%s: %w", d.Name, err)
	}
	labeled := make([]bool, d.N)
	for _, i := range split.Labeled {
		labeled[i] = true
	}
	head := make([]string, 0, d.D+2)
	seen := map[string]bool{}
	for _, c := range d.Columns {
		name := csvField(c.Name)
		if seen[name] || name == "label" || (x.truth != "" && name == x.truth) {
			return fmt.Errorf("%s: column name %q occurs twice in the export", d.Name, name)
		}
		seen[name] = true
		head = append(head, name)
	}
	head = append(head, "label")
	if x.truth != "" {
		head = append(head, csvField(x.truth))
	}
	f, err := os.Create(x.out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(strings.Join(head, ",") + "\n")
	var buf []byte
	for i := range d.N {
		buf = buf[:0]
		for _, v := range d.X.RawRowView(i) {
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
			buf = append(buf, ',')
		}
		buf = append(buf, "01"[b2int(labeled[i])])
		if x.truth != "" {
			buf = append(buf, ',', "01"[b2int(d.Y[i])])
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", x.out, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s: %w", x.out, err)
	}
	alpha := float64(d.NPos-len(split.Labeled)) / float64(len(split.Unlabeled))
	fmt.Fprintf(e.stderr, "pueval: datasets export: %s: %d rows, %d features, %d labeled (%.0f %% of the %d positives), %d unlabeled; true alpha %.4f, beta 1\n",
		x.out, d.N, d.D, len(split.Labeled), 100*x.fraction, d.NPos, len(split.Unlabeled), alpha)
	return nil
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// csvField quotes a header name that a CSV reader would split or trim.
func csvField(s string) string {
	if strings.ContainsAny(s, ",\"\n\r") || strings.TrimSpace(s) != s {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

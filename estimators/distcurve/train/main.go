// Command train generates DistCurve training curves with the published
// recipe, trains the estimator network and writes its weight file.
//
//	go run ./estimators/distcurve/train -seed 1 -curves 40000 -heldout 2000 -out estimators/distcurve/network.bin
//
// (the command that wrote the shipped network.bin; see the package
// documentation for its output). -cache FILE keeps the generated curves in a
// gob file for re-training with other network settings.
//
// With -net published it trains the paper's network instead (100 -> 2048 ->
// 1024 -> 512 -> 1, batch normalisation, dropout 0.5, batch 32, 100 epochs;
// package estimators/distcurve/internal/bntrain):
//
//	go run ./estimators/distcurve/train -net published -seed 1 -curves 100000 -heldout 2000 -dir DIR -out network-published.bin
//
// DIR keeps the generated curves (curves.gob) and the state after every
// epoch (checkpoint.gob, written atomically); run the same command again
// to resume after an interruption, with the same result as an
// uninterrupted run. Each epoch prints its training MAE (dropout on),
// validation MAE and seconds. The best epoch's network is written to -out,
// and its held-out accuracy printed, only when every epoch is done.
//
// Three disjoint streams are used: the training set (seed), a validation set
// for choosing the epoch (seed + 1, curves/10 curves) and the held-out test
// set (seed + 2, -heldout curves) whose MAE is printed for the weights as
// written (rounded to float32).
package main

import (
	"context"
	"encoding/gob"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pueval/pueval/estimators/distcurve"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	seed := fs.Uint64("seed", 1, "master seed")
	curves := fs.Int("curves", 40000, "training curves (the published trainSetSize; the paper used 100,000)")
	heldout := fs.Int("heldout", 2000, "held-out test curves")
	epochs := fs.Int("epochs", 0, "epochs (0: default)")
	hidden := fs.String("hidden", "", "hidden widths, comma separated (empty: default)")
	batch := fs.Int("batch", 0, "batch size (0: default)")
	lr := fs.Float64("lr", 0, "Adam step size (0: default)")
	workers := fs.Int("workers", 0, "curve generation goroutines (0: GOMAXPROCS); does not change the result")
	cache := fs.String("cache", "", "gob file caching the generated curves (reused when its settings match)")
	out := fs.String("out", "", "weight file to write (empty: none)")
	netKind := fs.String("net", "small", "network: small (100-256-128-64-1) or published (100-2048-1024-512-1 with batch normalisation and dropout)")
	dir := fs.String("dir", "", "-net published: folder of the run's files (curves.gob, checkpoint.gob); the run resumes from its checkpoint")
	threads := fs.Int("threads", 0, "-net published: goroutines of the matrix products (0: GOMAXPROCS); does not change the result")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch *netKind {
	case "small":
	case "published":
		if *dir == "" {
			return errors.New("-net published needs -dir (the folder of its curves and checkpoint)")
		}
		if *hidden != "" || *batch > 0 || *lr > 0 || *cache != "" {
			return errors.New("-net published takes the paper's settings: no -hidden, -batch, -lr or -cache")
		}
		return runPublished(ctx, stdout, publishedArgs{seed: *seed, curves: *curves, heldout: *heldout, epochs: *epochs,
			workers: *workers, threads: *threads, dir: *dir, out: *out})
	default:
		return fmt.Errorf("-net %q: want small or published", *netKind)
	}

	cfg := distcurve.DefaultTrainConfig(*seed)
	if *epochs > 0 {
		cfg.Epochs = *epochs
	}
	if *batch > 0 {
		cfg.Batch = *batch
	}
	if *lr > 0 {
		cfg.LR = *lr
	}
	if *hidden != "" {
		cfg.Hidden = nil
		for _, f := range strings.Split(*hidden, ",") {
			w, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return fmt.Errorf("-hidden: %w", err)
			}
			cfg.Hidden = append(cfg.Hidden, w)
		}
	}

	t0 := time.Now()
	sets, err := loadOrGenerate(ctx, *cache, *seed, *curves, *heldout, *workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "curves: train %d, validation %d, held-out %d (%.1fs)\n", len(sets.Train), len(sets.Valid), len(sets.Test), time.Since(t0).Seconds())

	t1 := time.Now()
	cfg.Log = func(epoch int, lr, trainMAE, validMAE float64) {
		fmt.Fprintf(stdout, "epoch %3d lr %.2e train MAE %.4f valid MAE %.4f (%.0fs)\n", epoch, lr, trainMAE, validMAE, time.Since(t1).Seconds())
	}
	net, rep, err := distcurve.Train(ctx, sets.Train, sets.Valid, cfg)
	if err != nil {
		return err
	}
	data, err := net.MarshalBinary()
	if err != nil {
		return err
	}
	var shipped distcurve.Network
	if err := shipped.UnmarshalBinary(data); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "network: 100 -> %v -> 1, %d parameters, %d bytes; best epoch %d of %d (valid MAE %.4f); training %.1fs\n",
		cfg.Hidden, rep.Parameters, len(data), rep.BestEpoch, cfg.Epochs, rep.ValidMAE, time.Since(t1).Seconds())
	fmt.Fprintf(stdout, "held-out MAE (%d curves, seed %d, float32 weights): %.4f\n", len(sets.Test), *seed+2, distcurve.MAE(&shipped, sets.Test))
	breakdown(stdout, &shipped, sets.Test)
	if *out != "" {
		if err := os.WriteFile(*out, data, 0o644); err != nil {
			return fmt.Errorf("write weights: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
	}
	return nil
}

type curveSets struct {
	Seed               uint64
	Curves, Heldout    int
	Train, Valid, Test []distcurve.Example
}

func loadOrGenerate(ctx context.Context, cache string, seed uint64, curves, heldout, workers int) (*curveSets, error) {
	if cache != "" {
		if f, err := os.Open(cache); err == nil {
			var s curveSets
			derr := gob.NewDecoder(f).Decode(&s)
			f.Close()
			if derr == nil && s.Seed == seed && s.Curves == curves && s.Heldout == heldout {
				return &s, nil
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	s := &curveSets{Seed: seed, Curves: curves, Heldout: heldout}
	var err error
	if s.Train, err = distcurve.DefaultRecipe(curves).Generate(ctx, seed, workers); err != nil {
		return nil, fmt.Errorf("training set: %w", err)
	}
	if s.Valid, err = distcurve.DefaultRecipe(max(curves/10, 100)).Generate(ctx, seed+1, workers); err != nil {
		return nil, fmt.Errorf("validation set: %w", err)
	}
	if s.Test, err = distcurve.DefaultRecipe(heldout).Generate(ctx, seed+2, workers); err != nil {
		return nil, fmt.Errorf("held-out set: %w", err)
	}
	if cache != "" {
		f, err := os.Create(cache)
		if err != nil {
			return nil, err
		}
		if err := gob.NewEncoder(f).Encode(s); err != nil {
			f.Close()
			return nil, fmt.Errorf("write cache: %w", err)
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// breakdown prints the held-out errors by Yang-distance band, against the
// true alpha and against the identifiable alpha+ of the example.
func breakdown(w io.Writer, net *distcurve.Network, test []distcurve.Example) {
	const bands = 5
	var n [bands]int
	var ea, ep, gap [bands]float64
	for _, e := range test {
		b := min(int(e.Distance*bands), bands-1)
		p := min(max(net.Raw(e.Curve), 0), 1)
		n[b]++
		ea[b] += math.Abs(p - e.Alpha)
		ep[b] += math.Abs(p - e.AlphaPlus)
		gap[b] += e.AlphaPlus - e.Alpha
	}
	fmt.Fprintln(w, "distance band | curves | MAE vs alpha | MAE vs alpha+ | mean alpha+ - alpha")
	for b := range bands {
		if n[b] == 0 {
			continue
		}
		k := float64(n[b])
		fmt.Fprintf(w, "[%.1f, %.1f) | %d | %.4f | %.4f | %.4f\n", float64(b)/bands, float64(b+1)/bands, n[b], ea[b]/k, ep[b]/k, gap[b]/k)
	}
}

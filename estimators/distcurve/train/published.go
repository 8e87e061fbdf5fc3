package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/pueval/pueval/estimators/distcurve"
	"github.com/pueval/pueval/estimators/distcurve/internal/bntrain"
	"github.com/pueval/pueval/estimators/distcurve/internal/sgemm"
)

type publishedArgs struct {
	seed                    uint64
	curves, heldout, epochs int
	workers, threads        int
	dir, out                string
}

// runPublished trains (or resumes training) the paper's network in a.dir
// and, once every epoch is done, writes the best epoch's folded network.
// The curves are cached in dir/curves.gob; the state after every epoch in
// dir/checkpoint.gob.
func runPublished(ctx context.Context, stdout io.Writer, a publishedArgs) error {
	if a.threads > 0 {
		sgemm.Threads = a.threads
	}
	if err := os.MkdirAll(a.dir, 0o755); err != nil {
		return err
	}
	t0 := time.Now()
	sets, err := loadOrGenerate(ctx, filepath.Join(a.dir, "curves.gob"), a.seed, a.curves, a.heldout, a.workers)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "curves: train %d, validation %d, held-out %d (%.1fs)\n", len(sets.Train), len(sets.Valid), len(sets.Test), time.Since(t0).Seconds())
	cfg := bntrain.Published(a.seed)
	if a.epochs > 0 {
		cfg.Epochs = a.epochs
	}
	ckpt := filepath.Join(a.dir, "checkpoint.gob")
	st, err := bntrain.Load(ckpt)
	switch {
	case err == nil:
		if !sameConfig(st.Config, cfg) {
			return fmt.Errorf("%s was written with %+v, this run asks for %+v: use another -dir", ckpt, st.Config, cfg)
		}
		fmt.Fprintf(stdout, "resuming %s after epoch %d of %d (best epoch %d, valid MAE %.4f)\n", ckpt, st.Epochs, cfg.Epochs, st.BestEpoch, st.BestValid)
	case errors.Is(err, os.ErrNotExist):
		if st, err = bntrain.NewState(sets.Train, cfg); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "new run: %+v\n", cfg)
	default:
		return err
	}
	t1 := time.Now()
	err = bntrain.Run(ctx, st, sets.Train, sets.Valid, func(s *bntrain.State) error {
		rec := &s.Log[len(s.Log)-1]
		rec.Seconds = time.Since(t1).Seconds()
		t1 = time.Now()
		if err := bntrain.Save(ckpt, s); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "epoch %3d train MAE %.4f valid MAE %.4f (%.0fs) best %d %.4f %s\n", rec.Epoch, rec.TrainMAE, rec.ValidMAE,
			rec.Seconds, s.BestEpoch, s.BestValid, time.Now().UTC().Format(time.RFC3339))
		return nil
	})
	if err != nil {
		return err
	}
	return exportPublished(stdout, st, sets, a)
}

func sameConfig(a, b bntrain.Config) bool {
	return fmt.Sprintf("%+v", a) == fmt.Sprintf("%+v", b)
}

// exportPublished writes the finished run's best model, folded, and
// reports its held-out accuracy.
func exportPublished(stdout io.Writer, st *bntrain.State, sets *curveSets, a publishedArgs) error {
	if st.Epochs != st.Config.Epochs || st.Best == nil {
		return fmt.Errorf("run not finished (%d of %d epochs): nothing exported", st.Epochs, st.Config.Epochs)
	}
	data, err := st.Best.Fold().MarshalBinary()
	if err != nil {
		return err
	}
	var shipped distcurve.Network
	if err := shipped.UnmarshalBinary(data); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "network: 100 -> %v -> 1 (BN folded), %d bytes; best epoch %d of %d (valid MAE %.4f, float32 BN net)\n",
		st.Config.Hidden, len(data), st.BestEpoch, st.Config.Epochs, st.BestValid)
	fmt.Fprintf(stdout, "held-out MAE (%d curves, seed %d, float32 weights): %.4f\n", len(sets.Test), a.seed+2, distcurve.MAE(&shipped, sets.Test))
	breakdown(stdout, &shipped, sets.Test)
	if a.out != "" {
		if err := os.WriteFile(a.out, data, 0o644); err != nil {
			return fmt.Errorf("write weights: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n", a.out)
	}
	return nil
}

package bntrain

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"os"
	"path/filepath"
)

// Save writes the state to file atomically (a temporary file in the same
// folder, synced, then renamed over file), so that a run killed while
// saving leaves the previous checkpoint intact.
func Save(file string, s *State) error {
	tmp, err := os.CreateTemp(filepath.Dir(file), filepath.Base(file)+".tmp*")
	if err != nil {
		return fmt.Errorf("bntrain: checkpoint: %w", err)
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := gob.NewEncoder(bw).Encode(s); err != nil {
		tmp.Close()
		return fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return fmt.Errorf("bntrain: checkpoint: %w", err)
	}
	return nil
}

// Load reads a state written by Save and checks its shapes.
func Load(file string) (*State, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("bntrain: checkpoint: %w", err)
	}
	defer f.Close()
	var s State
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&s); err != nil {
		return nil, fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("bntrain: checkpoint %s: %w", file, err)
	}
	return &s, nil
}

func (s *State) check() error {
	if err := s.Config.Validate(); err != nil {
		return err
	}
	if s.Model == nil || len(s.Model.Layers) != len(s.Config.Hidden)+1 {
		return fmt.Errorf("no model, or not %d layers for hidden %v", len(s.Config.Hidden)+1, s.Config.Hidden)
	}
	for k, l := range s.Model.Layers {
		want := 0
		if k < len(s.Config.Hidden) {
			want = s.Config.Hidden[k]
		}
		if k == len(s.Config.Hidden) {
			want = 1
		}
		if l.Out != want || len(l.W) != l.In*l.Out || (k > 0 && l.In != s.Model.Layers[k-1].Out) ||
			(k < len(s.Config.Hidden) && (len(l.RunMean) != l.Out || len(l.RunVar) != l.Out)) {
			return fmt.Errorf("layer %d: shape %d x %d, %d weights", k, l.Out, l.In, len(l.W))
		}
	}
	ps := s.Model.params()
	if len(s.M) != len(ps) || len(s.V) != len(ps) {
		return fmt.Errorf("%d moment slices for %d parameter slices", len(s.M), len(ps))
	}
	for i, p := range ps {
		if len(s.M[i]) != len(p) || len(s.V[i]) != len(p) {
			return fmt.Errorf("parameter slice %d: %d values, moments %d and %d", i, len(p), len(s.M[i]), len(s.V[i]))
		}
	}
	if s.Epochs < 0 || s.Epochs > s.Config.Epochs || len(s.Log) != s.Epochs {
		return fmt.Errorf("%d epochs done of %d, %d log entries", s.Epochs, s.Config.Epochs, len(s.Log))
	}
	return nil
}

package bounds

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// envData names the folder of the shared Claesen et al. rankings
// (/work/shared/claesen2015 on the project's machines; see its README). The
// tests that read them skip when it is unset and fail when it is set and a
// file is missing. The files are never copied into the repository.
const envData = "PUEVAL_CLAESEN_DATA"

// getDataDir is the folder named by envData, "" when unset.
func getDataDir() string { return os.Getenv(envData) }

// claesenDir returns the folder named by envData, or skips the test.
func claesenDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(envData)
	if dir == "" {
		t.Skipf("%s is unset: skipping the checks on the shared Claesen et al. rankings", envData)
	}
	if !filepath.IsAbs(dir) {
		t.Fatalf("%s = %q: want an absolute path", envData, dir)
	}
	return dir
}

// sharedRanking is one of the shared rankings: scores, true labels and
// what is known.
type sharedRanking struct {
	name   string
	scores []float64
	truth  []bool
	labels []Label
}

// trueBeta is the fraction of positives among the unlabeled, computed as
// the spec says: (positives - known positives) / |U|.
func (s sharedRanking) trueBeta() float64 {
	pos, kp, unl := 0, 0, 0
	for i, y := range s.truth {
		if y {
			pos++
		}
		switch s.labels[i] {
		case Positive:
			kp++
		case Unlabeled:
			unl++
		}
	}
	return float64(pos-kp) / float64(unl)
}

// readShared reads dir/name.csv: columns score,true_label and either
// known_positive (1 or 0: the covtype splits) or label (1, 0 or empty: the
// simulated rankings).
func readShared(t testing.TB, dir, name string) sharedRanking {
	t.Helper()
	path := filepath.Join(dir, name+".csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%s is set but: %v", envData, err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	s := sharedRanking{name: name}
	for _, r := range rows[1:] {
		v, err := strconv.ParseFloat(r[col["score"]], 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s.scores = append(s.scores, v)
		s.truth = append(s.truth, r[col["true_label"]] == "1")
		l := Unlabeled
		if c, ok := col["known_positive"]; ok {
			if r[c] == "1" {
				l = Positive
			}
		} else {
			switch r[col["label"]] {
			case "1":
				l = Positive
			case "0":
				l = Negative
			}
		}
		s.labels = append(s.labels, l)
	}
	return s
}

// readSharedBand reads dir/name_bootband.csv, the band the published code
// produced for name.csv.
func readSharedBand(t testing.TB, dir, name string) Band {
	t.Helper()
	path := filepath.Join(dir, name+"_bootband.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%s is set but: %v", envData, err)
	}
	defer f.Close()
	b, err := ReadBand(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustRank(t testing.TB, scores []float64, labels []Label, ties Ties) *Ranking {
	t.Helper()
	r, err := Rank(scores, labels, ties)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

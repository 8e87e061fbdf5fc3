package kmpe

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// sharedAUL returns the folder of the fixed AUL inputs (env
// PUEVAL_AUL_DATA, e.g. /work/shared/aul) or skips the test.
func sharedAUL(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("PUEVAL_AUL_DATA")
	if dir == "" {
		t.Skip("PUEVAL_AUL_DATA not set (the folder of the shared AUL KM inputs, e.g. /work/shared/aul)")
	}
	return dir
}

// readCSV reads a headerless numeric CSV.
func readCSV(t testing.TB, path string) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, len(recs))
	for i, r := range recs {
		out[i] = make([]float64, len(r))
		for j, s := range r {
			if out[i][j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s row %d: %v", path, i, err)
			}
		}
	}
	return out
}

func gaussInput(t testing.TB) (mix, comp [][]float64) {
	dir := sharedAUL(t)
	return readCSV(t, filepath.Join(dir, "gauss_mixture.csv")), readCSV(t, filepath.Join(dir, "gauss_component.csv"))
}

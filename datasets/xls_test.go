package datasets

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// toyCells is a 3 x 3 sheet: a header of strings, numbers stored as NUMBER
// and as RK in its four encodings ([MS-XLS] 2.5.217: bit 0 = value/100,
// bit 1 = 30-bit integer).
var toyCells = []xlsCell{
	{row: 0, col: 0, kind: 's', str: "Cement (kg)"},
	{row: 0, col: 1, kind: 's', str: "Age"},
	{row: 0, col: 2, kind: 's', str: "Strength (MPa) with a long name"},
	{row: 1, col: 0, kind: 'n', num: 540},
	{row: 1, col: 1, kind: 'r', rk: 28<<2 | 2},                                // integer 28
	{row: 1, col: 2, kind: 'n', num: 79.98611076},                             // Concrete_Data.xls's first strength
	{row: 2, col: 0, kind: 'r', rk: 12345<<2 | 3},                             // integer 12345 / 100 = 123.45
	{row: 2, col: 1, kind: 'r', rk: uint32(math.Float64bits(2.5) >> 32)},      // 2.5, top 30 bits of the double
	{row: 2, col: 2, kind: 'r', rk: uint32(math.Float64bits(1234.5)>>32) | 1}, // 1234.5 / 100
}

var toyRows = [][]string{
	{"Cement (kg)", "Age", "Strength (MPa) with a long name"},
	{"540", "28", "79.98611076"},
	{"123.45", "2.5", "12.345"},
}

func TestReadXLS(t *testing.T) {
	for _, c := range []struct {
		name  string
		cells []xlsCell
		split bool
	}{
		{"mini stream", toyCells, false},
		{"SST CONTINUE", toyCells, true},
		{"regular sectors", append(slices.Clone(toyCells), manyCells(3, 600)...), false},
	} {
		rows, err := readXLS(makeXLS(t, "Sheet1", c.cells, c.split), "")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for i, want := range toyRows {
			if !slices.Equal(rows[i], want) {
				t.Errorf("%s: row %d = %q, want %q", c.name, i, rows[i], want)
			}
		}
	}
	if _, err := readXLS(makeXLS(t, "Sheet1", toyCells, false), "Other"); err == nil || !strings.Contains(err.Error(), `no worksheet "Other"`) {
		t.Errorf("missing sheet: %v", err)
	}
}

// manyCells adds numeric cells from row first on, to make a workbook
// larger than the 4096-byte mini-stream cutoff.
func manyCells(first, n int) []xlsCell {
	var out []xlsCell
	for i := 0; i < n; i++ {
		out = append(out, xlsCell{row: first + i, col: 0, kind: 'n', num: float64(i)})
	}
	return out
}

func TestReadXLSErrors(t *testing.T) {
	good := makeXLS(t, "Sheet1", toyCells, false)
	corrupt := func(f func(b []byte)) []byte {
		b := slices.Clone(good)
		f(b)
		return b
	}
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"text", []byte(strings.Repeat("not a spreadsheet ", 40)), "missing the OLE2 compound-file signature"},
		{"short", good[:100], "shorter than a compound-file header"},
		{"sector shift", corrupt(func(b []byte) { b[0x1E] = 7 }), "sector shift 7"},
		{"directory outside", corrupt(func(b []byte) { b[0x30] = 200 }), "directory chain points at sector 200"},
		{"FAT count", corrupt(func(b []byte) { b[0x2C] = 200 }), "FAT sectors"},
		{"no workbook", corrupt(func(b []byte) { b[512*2+128] = 'X' }), `no "Workbook" stream`},
	} {
		_, err := readXLS(c.in, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}

func TestRKValue(t *testing.T) {
	// [MS-XLS] 2.5.217 RkNumber examples worked by hand.
	for _, c := range []struct {
		rk   uint32
		want float64
	}{
		{28<<2 | 2, 28},
		{uint32(0xFFFFFFFC) | 2, -1}, // integer -1
		{12345<<2 | 3, 123.45},
		{uint32(math.Float64bits(0.25) >> 32), 0.25},
		{uint32(math.Float64bits(100.5)>>32) | 1, 1.005},
	} {
		if got := rkValue(c.rk); got != c.want {
			t.Errorf("rk %#x = %v, want %v", c.rk, got, c.want)
		}
	}
}

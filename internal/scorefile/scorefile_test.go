package scorefile

import (
	"math"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	in := "\ufeffid,Label,score\r\n# a comment\r\na,1,0.9\r\nb,0, -1.5e-3\r\nc,1,3\r\n"
	d, err := Read(strings.NewReader(in), "x.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.9, -1.5e-3, 3}
	for i, s := range want {
		if d.Scores[i] != s {
			t.Errorf("score %d = %v, want %v", i, d.Scores[i], s)
		}
	}
	if !d.Labels[0] || d.Labels[1] || !d.Labels[2] || d.Positives() != 2 {
		t.Errorf("labels %v", d.Labels)
	}
}

func TestReadErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "x.csv: empty file"},
		{"score,y\n1,0\n", `x.csv:1: no label column "label" in the header (columns: "score", "y")`},
		{"score,label\n", "no data rows"},
		{"score,label\n0.5,1\nabc,0\n", `x.csv:3: column "score": "abc" is not a finite number`},
		{"score,label\n0.5,1\nNaN,0\n", `x.csv:3: column "score": "NaN"`},
		{"score,label\n0.5,1\n+Inf,0\n", `x.csv:3: column "score": "+Inf"`},
		{"score,label\n0.5,1\n\n0.2,2\n", `x.csv:4: column "label": label "2"`},
		{"score,label\n0.5,1\n0.2,1.5\n", `x.csv:3: column "label": label "1.5" is not 0 or 1`},
		{"score,label\n0.5,1\n0.2,yes\n", `x.csv:3: column "label": label "yes" is not 0 or 1`},
		{"score,label\n0.5,1\n0.2,\n", `x.csv:3: column "label": label "" is not 0 or 1`},
		{"score,label\n0.5,1\n0.2\n", "x.csv:3: wrong number of fields"},
	} {
		_, err := Read(strings.NewReader(c.in), "x.csv")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read(%q) error %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add("score,label\n0.5,1\n0.1,0\n")
	f.Add("label,score\r\n1,1e300\r\n0,-0\r\n")
	f.Add("score,label\n\"0.5\",1\n#x\n")
	f.Add("score,label\nNaN,1\n")
	f.Add("score,label,note\n0.5,True,\"a\nb\"\n0.1,0.0,x\n")
	f.Add("\ufeff# a comment\nscore,label\n0.5,1\n")
	f.Add("\ufeff\"score\",label\n0.5,1\n")
	f.Add("score,label,SCORE\n0.5,1,0.2\n")
	f.Add("\xef\xbbscore,label\n0.5,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		d, err := Read(strings.NewReader(in), "fuzz.csv")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.csv") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if len(d.Scores) == 0 || len(d.Scores) != len(d.Labels) {
			t.Fatalf("%d scores, %d labels", len(d.Scores), len(d.Labels))
		}
		for _, s := range d.Scores {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				t.Fatalf("non-finite score %v accepted", s)
			}
		}
	})
}

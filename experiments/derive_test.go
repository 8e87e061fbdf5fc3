package experiments

import (
	"reflect"
	"testing"
	"testing/fstest"
)

// Two built-in configs of one protocol, as a paper registers its full
// reproduction and its smoke test.
func init() {
	RegisterConfigs("testdata/derive", fstest.MapFS{
		"test-derive-full.yaml": &fstest.MapFile{Data: []byte(deriveFull)},
		"test-derive-smoke.yaml": &fstest.MapFile{Data: []byte(
			"experiment: test-derive-smoke\nseed: 5\nrepeats: 2\nprotocol: {name: case-control, labeled: 50}\n" +
				"datasets: [{name: g, source: {name: synth-gaussian, n: 300}}]\nmetrics: [auc]\nreport: derive-paper\n")},
	})
}

const deriveFull = "experiment: test-derive-full\nseed: 5\nrepeats: 20\nprotocol: {name: case-control, labeled: 200}\n" +
	"datasets: [{name: g, source: {name: synth-gaussian, n: 3000}}]\nmetrics: [auc]\nreport: derive-paper\n"

// TestDerivation: a config on disk that changes some settings of a
// built-in one names it and, by setting, what it changed (the built-in's
// value first); the nearest built-in config of its protocol is chosen (the
// full config, 2 settings apart, not the smoke one, 4 apart, nor
// test-builtin, whose data set and metrics also differ); a built-in config
// itself derives from nothing.
func TestDerivation(t *testing.T) {
	edited := []byte(deriveFull[:len("experiment: test-derive-full\nseed: 5\n")] + "repeats: 3\nprotocol: {name: case-control, labeled: 100}\n" +
		deriveFull[len("experiment: test-derive-full\nseed: 5\nrepeats: 20\nprotocol: {name: case-control, labeled: 200}\n"):])
	cfg, err := ParseConfig(edited, "/home/me/ablation.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Derivation()
	if d == nil {
		t.Fatal("no derivation")
	}
	want := []string{"protocol: labeled=200 -> labeled=100", "repeats: 20 -> 3"}
	if d.Config != "testdata/derive/test-derive-full.yaml (embedded)" || !reflect.DeepEqual(d.Differences, want) {
		t.Errorf("derived %+v, want the full config and %q", d, want)
	}
	same, err := ParseConfig([]byte(deriveFull), "copy.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := same.Derivation(); d == nil || d.Config != "testdata/derive/test-derive-full.yaml (embedded)" || d.Differences == nil || len(d.Differences) != 0 {
		t.Errorf("an unchanged copy: %+v, want the full config and no difference", d)
	}
	builtin, err := ReadConfig("test-derive-full", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := builtin.Derivation(); d != nil {
		t.Errorf("a built-in config derives from %+v", d)
	}
}

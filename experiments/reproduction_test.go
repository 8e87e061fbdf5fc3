package experiments

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A paper's folder with a config, its digests and its reproduction.
func init() {
	RegisterConfigs("testdata/repro", fstest.MapFS{
		"test-repro.yaml":                 &fstest.MapFile{Data: []byte("experiment: test-repro\n")},
		"test-repro-smoke.yaml":           &fstest.MapFile{Data: []byte("experiment: test-repro-smoke\n")},
		"reference/test-repro.digests.gz": &fstest.MapFile{Data: []byte("gz")},
	})
	RegisterReproduction(Reproduction{Paper: "test-repro", Full: []string{"test-repro"}, Smoke: []string{"test-repro-smoke"}})
}

// TestReferenceDigests: the digests beside a built-in config are found
// (compressed or not) with where they come from; a config without any, or
// no built-in config, has none.
func TestReferenceDigests(t *testing.T) {
	data, src, ok, err := ReferenceDigests("test-repro")
	if err != nil || !ok || string(data) != "gz" || src != "testdata/repro/reference/test-repro.digests.gz (embedded)" {
		t.Errorf("test-repro: %q %q %v %v", data, src, ok, err)
	}
	for _, name := range []string{"test-repro-smoke", "no-such-config"} {
		if _, _, ok, err := ReferenceDigests(name); ok || err != nil {
			t.Errorf("%s: digests found (%v, %v)", name, ok, err)
		}
	}
	if dir, ok := BuiltinDir("test-repro"); !ok || dir != "testdata/repro" {
		t.Errorf("BuiltinDir: %q %v", dir, ok)
	}
	i := slices.IndexFunc(Reproductions(), func(r Reproduction) bool { return r.Paper == "test-repro" })
	if i < 0 || Reproductions()[i].Full[0] != "test-repro" {
		t.Errorf("Reproductions: %+v", Reproductions())
	}
}

// TestRegistrationRefuses: a digest file of no config of the folder, two
// digest files of one config, a reproduction of an unregistered config or
// registered twice are programming errors: they panic.
func TestRegistrationRefuses(t *testing.T) {
	cfg := &fstest.MapFile{Data: []byte("experiment: x\n")}
	for name, f := range map[string]func(){
		"stray digests": func() {
			RegisterConfigs("testdata/stray", fstest.MapFS{"test-stray.yaml": cfg, "reference/other.digests": cfg})
		},
		"two digests": func() {
			RegisterConfigs("testdata/two", fstest.MapFS{"test-two.yaml": cfg, "reference/test-two.digests": cfg, "reference/test-two.digests.gz": cfg})
		},
		"unregistered config": func() {
			RegisterReproduction(Reproduction{Paper: "test-none", Full: []string{"no-such"}, Smoke: []string{"test-repro-smoke"}})
		},
		"twice": func() {
			RegisterReproduction(Reproduction{Paper: "test-repro", Full: []string{"test-repro"}, Smoke: []string{"test-repro-smoke"}})
		},
		"no smoke": func() { RegisterReproduction(Reproduction{Paper: "test-nosmoke", Full: []string{"test-repro"}}) },
	} {
		msg := func() (msg string) {
			defer func() { msg, _ = recover().(string) }()
			f()
			return ""
		}()
		if !strings.HasPrefix(msg, "experiments: ") {
			t.Errorf("%s: panic %q", name, msg)
		}
	}
}

package pulp

import (
	"embed"

	"github.com/pueval/pueval/experiments"
)

// Configs holds the paper's experiment configs (the full reproduction and
// its smoke test), registered as built-in configs so that an installed
// binary runs them from any directory (pueval reproduce NAME); a copy of
// a file on disk runs an edited version (pueval run FILE). Beside them,
// reference/NAME.digests (NAME.digests.gz for the larger full runs) are the
// digests of the records of reference runs of the configs (pueval verify
// compares a run with them).
//
//go:embed *.yaml reference
var Configs embed.FS

func init() {
	experiments.RegisterConfigs("papers/pulp", Configs)
	experiments.RegisterReproduction(experiments.Reproduction{Paper: "pulp", Full: []string{"pulp"}, Smoke: []string{"pulp-smoke"}})
}

package pulp

import (
	"embed"

	"github.com/pueval/pueval/experiments"
)

// Configs holds the paper's experiment configs (the full reproduction and
// its smoke test), registered as built-in configs so that an installed
// binary runs them from any directory (pueval reproduce NAME); a copy of
// a file on disk runs an edited version (pueval run FILE).
//
//go:embed *.yaml
var Configs embed.FS

func init() { experiments.RegisterConfigs("papers/pulp", Configs) }

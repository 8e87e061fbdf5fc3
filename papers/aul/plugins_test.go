package aul

import (
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
)

// TestPlugins runs the plug-in conformance suite on the paper's plug-ins.
func TestPlugins(t *testing.T) {
	// Few folds and centres keep the kernel learners of pu-learning quick.
	plugintest.Registered(t, map[string]plugintest.Options{"pu-learning": {Required: "folds: 2\ncentres: 20"}},
		"scar-fraction", "aul", "pu-learning")
}

package pulp

import (
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
)

// TestPlugins runs the plug-in conformance suite on the paper's plug-ins.
func TestPlugins(t *testing.T) {
	plugintest.Registered(t, nil, "biased-labeling", "unlabeled-prior", "labeling", "pu-measures")
}

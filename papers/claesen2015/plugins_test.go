package claesen2015

import (
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
)

// TestPlugins runs the plug-in conformance suite on the paper's plug-ins.
func TestPlugins(t *testing.T) {
	plugintest.Registered(t, map[string]plugintest.Options{
		"claesen2015": {Config: "grid: {known-positives: [0.1]}"},
	}, "claesen2015", "bounds")
}

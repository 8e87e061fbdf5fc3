package psb2019

import (
	"testing"

	"github.com/pueval/pueval/experiments/plugintest"
)

// TestPlugins runs the plug-in conformance suite on the paper's plug-ins.
func TestPlugins(t *testing.T) {
	plugintest.Registered(t, nil, "psb2019")
}

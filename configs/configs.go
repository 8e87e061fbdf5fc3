// Package configs embeds pueval's YAML configuration files, so that an
// installed binary finds them from any directory: datasets.yaml (the
// data-set catalog, read by package datasets) and the papers' experiment
// configs. A path given on the command line uses the file on disk instead.
//
// It holds data only and imports nothing from the module.
package configs

import "embed"

// FS holds every *.yaml file of this directory.
//
//go:embed *.yaml
var FS embed.FS

// DatasetsFile is the name of the data-set catalog in FS.
const DatasetsFile = "datasets.yaml"

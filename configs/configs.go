// Package configs embeds pueval's data-set catalog, datasets.yaml (read by
// package datasets), so that an installed binary finds it from any
// directory. The papers' experiment configs live with their papers
// (papers/NAME/*.yaml), which register them as built-in configs.
//
// It holds data only and imports nothing from the module.
package configs

import "embed"

// FS holds the catalog.
//
//go:embed datasets.yaml
var FS embed.FS

// DatasetsFile is the name of the data-set catalog in FS.
const DatasetsFile = "datasets.yaml"

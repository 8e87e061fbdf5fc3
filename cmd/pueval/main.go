// Command pueval reproduces the experiments of the papers on measuring
// classifiers from positive-unlabeled data and recovers the true performance
// of a practitioner's classifier. Run `pueval help` for the subcommands.
//
// It is package cli (the command line) with the five papers' plug-ins
// (plugins.go); a binary of one's own papers is made the same way, see
// examples/toypaper/cmd/toypaper.
package main

import (
	"os"

	"github.com/pueval/pueval/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }

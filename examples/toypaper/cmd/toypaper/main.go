// Command toypaper is pueval with the toy paper's plug-ins and none of the
// five papers': a researcher's own binary is their plug-in packages and this
// main. Run it from the repository root:
//
//	go run ./examples/toypaper/cmd/toypaper run examples/toypaper/toypaper.yaml -o /tmp/toy
package main

import (
	"os"

	"github.com/pueval/pueval/cli"
	_ "github.com/pueval/pueval/examples/toypaper" // the toy paper registers its plug-ins
)

func main() { os.Exit(cli.Main(os.Args[1:])) }

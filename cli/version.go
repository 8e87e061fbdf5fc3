package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time by the Makefile
// (-ldflags "-X github.com/pueval/pueval/cli.version=...").
var version = ""

// Version returns the version of this binary: the build-time version if set,
// else the module version recorded by the go tool, else "devel".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func runVersion(ctx context.Context, e *env, args []string) error {
	fs := flagSet("version")
	if help, err := parseFlags(e, fs, args); help || err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	fmt.Fprintf(e.stdout, "pueval %s (%s %s/%s)\n", Version(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return nil
}

package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time only when asked for
// (make build VERSION=v1.2, or -ldflags "-X github.com/pueval/pueval/cli.version=v1.2").
// Without it the version comes from the build information the go command
// records, so that make build, go build and go install of one tree report
// the same version.
var version = ""

// Version returns the version of this binary: the build-time version if set,
// else the module version the go command recorded (a release tag, or a
// pseudo-version naming the commit when it stamped version control
// information), else the commit alone, else "devel".
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionFrom(version, bi)
}

// versionFrom is Version for a given build-time version and build
// information (nil when the binary has none).
func versionFrom(ldflags string, bi *debug.BuildInfo) string {
	if ldflags != "" {
		return ldflags
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var modified bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "+dirty"
	}
	return rev
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

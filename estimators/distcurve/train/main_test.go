package main

import (
	"io"
	"strings"
	"testing"
)

// TestPublishedFlags: -net published refuses to start without its folder
// or with the small net's tuning flags, and -net takes only the two names;
// each error names the flag.
func TestPublishedFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-net", "large"}, `-net "large"`},
		{[]string{"-net", "published"}, "-dir"},
		{[]string{"-net", "published", "-dir", t.TempDir(), "-hidden", "8"}, "-hidden"},
		{[]string{"-net", "published", "-dir", t.TempDir(), "-batch", "64"}, "-batch"},
	} {
		err := run(c.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one naming %s", c.args, err, c.want)
		}
	}
}

//go:build !amd64

package linalg

import "testing"

func testPickKernelsAMD64(t *testing.T) { t.Fatal("no vector kernels outside amd64") }

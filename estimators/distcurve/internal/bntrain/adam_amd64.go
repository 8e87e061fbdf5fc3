package bntrain

import "golang.org/x/sys/cpu"

//go:noescape
func adamAVX512(w, grad, m, v *float32, n int, c *[6]float32)

func init() {
	if cpu.X86.HasAVX512F {
		adamVec = func(w, g, m, v []float32, c *[6]float32) int {
			n := len(w) &^ 15
			if n > 0 {
				adamAVX512(&w[0], &g[0], &m[0], &v[0], n, c)
			}
			return n
		}
	}
}

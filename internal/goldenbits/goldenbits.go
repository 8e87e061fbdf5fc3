// Package goldenbits hashes float64 values bit for bit, for the golden
// tests that check a computation gives the same bits on every CPU and
// architecture (the TestGoldenBits of internal/portmath, classifiers/gbdt,
// classifiers/kernelauc, estimators/kmpe and estimators/distcurve, which
// `make test-cross` also runs under qemu-aarch64 and emulated amd64 CPUs).
//
// The hash is FNV-64a over each value's IEEE 754 bits, little-endian, in
// the order added: any difference in any bit of any value, or in their
// order or number, changes it (up to FNV's collisions).
package goldenbits

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
)

// Hash accumulates values; the zero value is not usable: call New.
type Hash struct {
	h   hash.Hash64
	buf [8]byte
	n   int
}

// New returns an empty Hash.
func New() *Hash { return &Hash{h: fnv.New64a()} }

// Add adds the values' bits in order.
func (h *Hash) Add(vs ...float64) {
	for _, v := range vs {
		binary.LittleEndian.PutUint64(h.buf[:], math.Float64bits(v))
		h.h.Write(h.buf[:])
	}
	h.n += len(vs)
}

// Len is the number of values added.
func (h *Hash) Len() int { return h.n }

// String is the hash as 16 hexadecimal digits.
func (h *Hash) String() string { return fmt.Sprintf("%016x", h.h.Sum64()) }

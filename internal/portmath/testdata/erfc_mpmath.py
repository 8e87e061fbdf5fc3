#!/usr/bin/env python3
"""Writes erfc_mpmath.txt: erfc(x) by mpmath at 200 bits, rounded to the
nearest float64, for 4,022 arguments of TestErfc (portmath): every region of
fdlibm's erfc ([0, 0.84375), [0.84375, 1.25), [1.25, 1/0.35), [1/0.35, 28),
beyond 28) on both sides of 0, drawn from numpy's PCG64(2026) and rounded to
float64. Each line: the argument's and the value's IEEE 754 bits in hex.

Run with Debian's python3-mpmath and python3-numpy:
    /usr/bin/python3 internal/portmath/testdata/erfc_mpmath.py > internal/portmath/testdata/erfc_mpmath.txt
"""
import struct

import mpmath
import numpy as np

mpmath.mp.prec = 200


def bits(v):
    return struct.unpack("<Q", struct.pack("<d", v))[0]


rng = np.random.Generator(np.random.PCG64(2026))
edges = [0, 2.0**-56, 0.25, 0.84375, 1.25, 1 / 0.35, 6, 28, 30]
xs = [0.0, 2.0**-60, 1e-20, 0.25, 0.84375, 1.25, 1 / 0.35, 6.0, 27.9, 28.0, 40.0]
for lo, hi in zip(edges, edges[1:]):
    xs += [float(v) for v in rng.uniform(lo, hi, 250)]
xs += [-x for x in xs]
for x in xs:
    v = float(mpmath.erfc(mpmath.mpf(x)))
    print(f"{bits(x):016x} {bits(v):016x}")

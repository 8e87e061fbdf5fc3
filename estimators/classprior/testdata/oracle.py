#!/usr/bin/python3
"""Independent oracle for the AlphaMax per-alpha likelihood (classprior tests).

Run with Debian's python3 (numpy, scipy): /usr/bin/python3 testdata/oracle.py
It re-implements, from the published code's behaviour as package classprior
documents it and not from the Go code, the published histogram model (MATLAB
automatic bin width, closed-interval uniform bins over both samples, EM
weights) and maximises the published per-alpha objective with a general
solver (scipy SLSQP on the point-level objective, which does not assume
separability), then prints the ll_cmb2 value at each alpha. The Go tests
freeze these numbers (TestLogLikOracle).
"""
import math
import numpy as np
from scipy.optimize import minimize

def bin_width(x1):
    x1 = np.asarray(x1, float)
    lo, hi = x1.min(), x1.max()
    if hi - lo <= 50 and np.all(np.round(x1) == x1):
        return 1.0
    raw = 3.5 * np.std(x1, ddof=1) / len(x1) ** (1 / 3)
    e = math.floor(math.log10(raw))
    while 10.0 ** (e + 1) <= raw: e += 1
    while 10.0 ** e > raw: e -= 1
    pw = 10.0 ** e
    rel = raw / pw
    for lim, m in ((1.5, 1), (2.5, 2), (4, 3), (7.5, 5)):
        if rel < lim:
            return m * pw
    return 10 * pw

def membership(x, edges):
    # closed intervals [e_k, e_{k+1}], as MATLAB's unifpdf
    x = np.asarray(x, float)[:, None]
    return ((x >= edges[None, :-1]) & (x <= edges[None, 1:])).astype(float)

def em(M, iters=1000):
    K = M.shape[1]
    w = np.full(K, 1.0 / K)
    for _ in range(iters):
        r = M * w
        r /= r.sum(axis=1, keepdims=True)
        w = r.mean(axis=0)
    return w

def curve(x, x1, alphas):
    w = bin_width(x1)
    xmin, xmax = min(min(x), min(x1)), max(max(x), max(x1))
    K = int(math.floor((xmax + w - xmin) / w + 1e-10))
    while xmin + K * w < xmax: K += 1
    edges = xmin + w * np.arange(K + 1)
    M, M1 = membership(x, edges), membership(x1, edges)
    a, p = em(M), em(M1)
    use = a > 0
    keep1 = (M1[:, use].sum(axis=1) > 0)  # component points outside the mixture's bins are constant
    n, n1 = len(x), len(x1)
    out = []
    for al in alphas:
        au = a[use]
        def negobj(b):
            bb = np.zeros(K); bb[use] = b
            c = (M1[keep1] @ (bb * a)) / w
            m = (M @ ((1 - bb) * a + al * p)) / w
            return -(np.log(c).sum() / n1 + np.log(m).sum() / n)
        cons = [{'type': 'eq', 'fun': lambda b: au @ b - al, 'jac': lambda b: au}]
        best = None
        for start in (np.full(use.sum(), al), np.clip(al * p[use] / np.maximum(au, 1e-300), 0, 1)):
            start = start * al / (au @ start) if au @ start > 0 else np.full(use.sum(), al)
            r = minimize(negobj, np.clip(start, 1e-9, 1), method='SLSQP', bounds=[(1e-12, 1)] * use.sum(),
                         constraints=cons, options={'ftol': 1e-15, 'maxiter': 5000})
            if best is None or r.fun < best.fun:
                best = r
        bb = np.zeros(K); bb[use] = best.x
        s1 = (bb * a).sum(); s0 = ((1 - bb) * a).sum()
        h1 = (M1 @ (bb * a)) / (s1 * w)
        h0 = (M @ ((1 - bb) * a)) / (s0 * w)
        p1 = (M @ p) / w
        ll = np.log(np.maximum(h1, 1e-14)).sum() / n1 + np.log(s1 * p1 + (1 - s1) * np.maximum(h0, 1e-14)).sum() / n
        out.append(ll)
    return w, K, out

rng = np.random.default_rng(20240601)
cont_x = np.round(np.concatenate([rng.normal(0, 1, 150), rng.normal(2, 1, 50)]), 4)
cont_x1 = np.round(rng.normal(2, 1, 80), 4)
int_x = rng.integers(0, 7, 40).astype(float)
int_x1 = np.minimum(rng.integers(3, 8, 20), 6).astype(float)
alphas = [0.01, 0.1, 0.25, 0.4, 0.6, 0.8, 0.99]
# A tiny all-integer sample whose EM leaves bins with weights near 1e-297
# (points only on edges they share with fuller bins): both AlphaMax-N runs.
tiny_l = np.array([5, 1, 3, 4, 0, 3, 2, 2, 2, 3], float)
tiny_u = np.array([3, 4, 7, 7, 4, 0, 5, 0, 7, 4, 0, 7, 1, 5, 6, 4], float)
for name, x, x1 in (("continuous", cont_x, cont_x1), ("integer", int_x, int_x1),
                    ("tiny-run1", tiny_u, tiny_l), ("tiny-run2", tiny_l, tiny_u)):
    w, K, ll = curve(x, x1, alphas)
    print(name, "width", repr(w), "bins", K)
    print("  x  =", ",".join(repr(float(v)) for v in x))
    print("  x1 =", ",".join(repr(float(v)) for v in x1))
    for al, v in zip(alphas, ll):
        print("  alpha %.2f loglik %.12f" % (al, v))

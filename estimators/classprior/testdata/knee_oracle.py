#!/usr/bin/python3
"""Independent oracle for the published knee rule (classprior tests).

Run with Debian's python3 (numpy, scipy): /usr/bin/python3 testdata/knee_oracle.py
It re-implements inflectionScript as described in
the published code's behaviour as package classprior documents it (knn-median
smoothing with k = 5, min-max normalisation, min_slope, npts = 10 windows,
line fits by least squares subject to lying below every point and to
slope >= min_slope, solved here by scipy SLSQP rather than exactly, the stale
left slope from j = 20 on, argmax over a zero-initialised score vector) and
prints the scores for the -loglik curves in testdata/knee_curves.txt (grid
0.01..0.99), once with the stale slope and once without. The Go tests freeze
the output (TestKneeScoresOracle).
"""
import numpy as np
from scipy.optimize import minimize

alphas = np.round(np.arange(1, 100) * 0.01, 12)

def smooth(x, f, k=5):
    out = np.empty_like(f)
    for i in range(len(x)):
        idx = np.argsort(np.abs(x - x[i]), kind='stable')[:k]
        out[i] = np.median(f[idx])
    return out

def fit(X, f, rows, min_slope):
    Xw, fw = X[rows], f[rows]
    b0 = np.linalg.lstsq(Xw, fw, rcond=None)[0]
    # feasible start: slope max(min_slope, b0[1]), intercept below every point
    s = max(min_slope, b0[1])
    start = np.array([np.min(f - s * X[:, 1]) - 1e-3, s])
    cons = [{'type': 'ineq', 'fun': lambda b: f - X @ b, 'jac': lambda b: -X},
            {'type': 'ineq', 'fun': lambda b: np.array([b[1] - min_slope]), 'jac': lambda b: np.array([[0.0, 1.0]])}]
    r = minimize(lambda b: 0.5 * np.sum((Xw @ b - fw) ** 2), start,
                 jac=lambda b: Xw.T @ (Xw @ b - fw), constraints=cons, method='SLSQP',
                 options={'ftol': 1e-16, 'maxiter': 1000})
    return r.x

def scores(x, f, stale, npts=10):
    f = smooth(x, f)
    f = (f - f.min()) / (f.max() - f.min())
    n = len(x)
    X = np.column_stack([np.ones(n), x])
    min_slope = (f[-1] - f[0]) / (x[-1] - x[0]) / 100
    sr = np.zeros(n)
    left = None
    for j in range(npts, n - npts + 1):  # 1-based j
        right = fit(X, f, np.arange(j, j + npts), min_slope)
        if not stale or j < 2 * npts:
            left = fit(X, f, np.arange(j - npts, j), min_slope)
        sr[j - 1] = (right[1] - left[1]) / (np.median(f[j - npts:j]) + 0.01)
    return sr

for line in open('testdata/knee_curves.txt'):
    f = np.array([float(v) for v in line.split(',')])
    for stale in (True, False):
        sr = scores(alphas, f, stale)
        print('stale' if stale else 'fixed', int(np.argmax(sr)), ','.join('%.10g' % v for v in sr))

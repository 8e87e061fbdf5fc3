#!/usr/bin/python3
"""Independent numpy/scipy oracle for estimators/kmpe (run with /usr/bin/python3:
numpy 1.24, scipy 1.10). Writes the golden files of testdata/ that the Go tests
read (CI has no Python). Written from the method's description in
package kmpe's description of the published code's behaviour, not from its code.

  qp_golden.json      small simplex QPs min_v (u-v)'K(u-v), v in the simplex,
                      solved by an exact primal active-set method (numpy
                      linear solves of the bordered KKT system) and checked
                      against scipy.optimize.minimize(SLSQP, ftol 1e-15).
  shared_golden.json  width choice, delta, nu1, nu2, bisection paths, KM1, KM2
                      on the shared AUL inputs (gauss raw/zscore, airfoil
                      raw/zscore), with numpy.median and the same QP oracle.
                      Needs PUEVAL_AUL_DATA (the folder of the AUL paper's fixed KM inputs).

Usage: PUEVAL_AUL_DATA=/path/to/aul /usr/bin/python3 oracle.py
"""
import json, os, sys
import numpy as np
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))


def kernel(X, sigma):
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    return np.exp(-D2 / (2 * sigma ** 2))


def target(N, M, lam):
    return np.concatenate([np.full(N, lam / N), np.full(M, (1 - lam) / M)])


def qp_exact(K, u, tol=1e-14, maxit=100000):
    """Lawson-Hanson-type primal active set for min (u-v)'K(u-v) on the simplex,
    started from the best vertex; bordered KKT system solved by numpy."""
    n = len(u)
    Ku = K @ u
    t0 = int(np.argmin(np.diag(K) - 2 * Ku))
    v = np.zeros(n); v[t0] = 1.0
    S = [t0]
    for _ in range(maxit):
        while True:
            Ss = np.array(S)
            m = len(Ss)
            A = np.zeros((m + 1, m + 1))
            A[:m, :m] = K[np.ix_(Ss, Ss)]
            A[:m, m] = 1; A[m, :m] = 1
            z = np.linalg.solve(A, np.concatenate([Ku[Ss], [1.0]]))[:m]
            if (z > 0).all():
                v[:] = 0; v[Ss] = z
                break
            neg = z <= 0
            ratios = np.where(neg, v[Ss] / np.where(neg, v[Ss] - z, 1), np.inf)
            k = int(np.argmin(ratios))
            v[Ss] = v[Ss] + ratios[k] * (z - v[Ss])
            v[Ss[k]] = 0
            S = [t for t in S if v[t] > 0]
        g = K @ v - Ku
        gmax = g[S].max()
        mask = np.ones(n, bool); mask[S] = False
        if not mask.any():
            break
        out = np.nonzero(mask)[0]
        t = int(out[np.argmin(g[out])])
        if g[t] >= gmax - tol:
            break
        S.append(t)
    g = K @ v - Ku
    gap = g[v > 0].max() - g.min()
    return v, float((v - u) @ K @ (v - u)), float(gap)


def qp_slsqp(K, u):
    n = len(u)
    f = lambda v: (u - v) @ K @ (u - v)
    jac = lambda v: 2 * K @ (v - u)
    r = minimize(f, np.full(n, 1 / n), jac=jac, method='SLSQP', bounds=[(0, None)] * n,
                 constraints=[{'type': 'eq', 'fun': lambda v: v.sum() - 1, 'jac': lambda v: np.ones(n)}],
                 options={'ftol': 1e-15, 'maxiter': 2000})
    return r.x, float(r.fun)


def qp_cases():
    rng = np.random.RandomState(20240607)
    cases = []
    for (N, M, d, sigma) in [(4, 3, 2, 1.0), (8, 6, 2, 0.7), (15, 10, 3, 1.5), (30, 20, 2, 1.0), (40, 25, 4, 3.0)]:
        Xm = np.vstack([rng.randn(N - N // 3, d), rng.randn(N // 3, d) + 1.5])
        Xc = rng.randn(M, d) + 1.5
        X = np.vstack([Xm, Xc])
        K = kernel(X, sigma)
        for lam in [1.0, 1.02, 1.3, 2.5, 6.0]:
            u = target(N, M, lam)
            v, sq, gap = qp_exact(K, u)
            vs, sqs = qp_slsqp(K, u)
            assert abs(sq - sqs) < 1e-8, (N, lam, sq, sqs)
            cases.append({'x': X.tolist(), 'n_mixture': N, 'sigma': sigma, 'lambda': lam,
                          'squared': max(sq, 0.0), 'v': v.tolist(), 'gap': gap, 'slsqp_squared': sqs})
    return cases


def km(Xm, Xc):
    X = np.vstack([Xm, Xc]); N, M = len(Xm), len(Xc)
    D2 = ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)
    med = float(np.median(D2))
    sigmas = np.sqrt(med) * np.logspace(-1, 1, 5)
    w = np.concatenate([np.full(N, 1 / N), np.full(M, -1 / M)])
    deltas = [float(np.sqrt(max(0, w @ np.exp(-D2 / (2 * s * s)) @ w))) for s in sigmas]
    best = int(np.argmax(deltas))  # first maximum
    K = np.exp(-D2 / (2 * sigmas[best] ** 2))
    memo = {}

    def dist(lam):
        if lam not in memo:
            _, sq, _ = qp_exact(K, target(N, M, lam))
            memo[lam] = float(np.sqrt(max(0.0, sq)))
        return memo[lam]

    delta = deltas[best]
    d100, d105 = dist(1.0), dist(1.05)
    begin = (d105 - d100) / 0.05
    nu1 = ((1 - 0.2) * begin + 0.2 * delta) / delta
    nu2raw = (1 / np.sqrt(min(N, M))) / delta
    nu2 = nu1 if nu2raw > 0.9 else nu2raw

    def mpe(nu):
        lo, hi, path = 1.0, 8.0, []
        while hi - lo > 0.04:
            m = (lo + hi) / 2
            dm, dp = dist(m), dist(m + 0.02)
            slope = (dp - dm) * 50
            above = bool(slope > nu * delta)
            path.append({'mid': m, 'd': dm, 'd_plus': dp, 'slope': slope, 'threshold': nu * delta, 'above': above})
            if above:
                hi = m
            else:
                lo = m
        lam = (lo + hi) / 2
        return lam, path

    l1, p1 = mpe(nu2)
    l2, p2 = mpe(nu1)
    return {'n_mixture': N, 'n_component': M, 'median_d2': med, 'sigmas': sigmas.tolist(), 'deltas': deltas,
            'sigma_index': best, 'delta': delta, 'd100': d100, 'd105': d105, 'begin_slope': begin,
            'nu1': nu1, 'nu2_raw': float(nu2raw), 'nu2': float(nu2), 'lambda1': l1, 'lambda2': l2,
            'km1': (l1 - 1) / l1, 'km2': (l2 - 1) / l2, 'path1': p1, 'path2': p2}


def zscore(X):
    return (X - X.mean(0)) / X.std(0)


def shared_cases(root):
    out = {}
    Xm = np.loadtxt(os.path.join(root, 'gauss_mixture.csv'), delimiter=',')
    Xc = np.loadtxt(os.path.join(root, 'gauss_component.csv'), delimiter=',')
    out['gauss_raw'] = km(Xm, Xc)
    Z = zscore(np.vstack([Xm, Xc]))
    out['gauss_zscore'] = km(Z[:len(Xm)], Z[len(Xm):])
    A = np.loadtxt(os.path.join(root, '..', 'uci', 'machine-learning-databases', '00291', 'airfoil_self_noise.dat'))
    F = A[:, :5]
    lab = np.loadtxt(os.path.join(root, 'airfoil_b0.4_seed7_labeled_rows.txt'), dtype=int)
    isl = np.zeros(len(F), bool); isl[lab] = True
    out['airfoil_raw'] = km(F[~isl], F[isl])
    Z = zscore(F)
    out['airfoil_zscore'] = km(Z[~isl], Z[isl])
    return out


if __name__ == '__main__':
    with open(os.path.join(HERE, 'qp_golden.json'), 'w') as f:
        json.dump({'source': 'testdata/oracle.py: exact active set (numpy), checked against scipy SLSQP',
                   'cases': qp_cases()}, f)
    root = os.environ.get('PUEVAL_AUL_DATA')
    if root:
        with open(os.path.join(HERE, 'shared_golden.json'), 'w') as f:
            json.dump({'source': 'testdata/oracle.py on the AUL paper's fixed KM inputs (numpy median, exact active-set QP)',
                       'cases': shared_cases(root)}, f, indent=1)
    else:
        print('PUEVAL_AUL_DATA not set: shared_golden.json not written', file=sys.stderr)

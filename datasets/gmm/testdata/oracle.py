#!/usr/bin/python3
"""Oracle for datasets/gmm: PCA by numpy's SVD, diagonal GMM by scikit-learn.

Run with Debian's python3 (numpy, scikit-learn) from this directory:

    /usr/bin/python3 oracle.py > oracle.json

The output is frozen: the Go tests read oracle.json and never run this script.
"""
import json
import sys
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.mixture import GaussianMixture

rng = np.random.default_rng(20140820)


def pca_case(name, n, d, rows):
    # Columns of different scales and non-zero means, so that centring matters.
    x = rng.normal(size=(n, d)) * rng.uniform(0.5, 3.0, size=d) + rng.uniform(-2, 2, size=d)
    xs = x[rows]
    mean = xs.mean(axis=0)
    xc = xs - mean
    _, s, vt = np.linalg.svd(xc, full_matrices=False)
    k = min(len(rows) - 1, d)
    vt = vt[:k]
    # Sign convention: the entry of largest |.| of each axis is positive
    # (np.argmax takes the first of ties, as the Go code does).
    for j in range(k):
        if vt[j, np.argmax(np.abs(vt[j]))] < 0:
            vt[j] = -vt[j]
    return {
        "name": name,
        "x": x.tolist(),
        "rows": rows,
        "k": k,
        "mean": mean.tolist(),
        "components": vt.tolist(),
        "variances": (s[:k] ** 2 / (len(rows) - 1)).tolist(),
        "scores": (xc @ vt.T).tolist(),
    }


def gmm_case(name, max_iter, tol):
    gx = GMM_X
    init_w = np.array([0.2, 0.3, 0.5])
    init_m = gx[[3, 70, 140]] + 0.25
    init_v = np.ones((3, gx.shape[1]))
    gm = GaussianMixture(
        n_components=3,
        covariance_type="diag",
        reg_covar=1e-6,
        tol=tol,
        max_iter=max_iter,
        weights_init=init_w,
        means_init=init_m,
        precisions_init=1 / init_v,
        random_state=0,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        gm.fit(gx)
    return {
        "name": name,
        "max_iter": max_iter,
        "tol": tol,
        "init_weights": init_w.tolist(),
        "init_means": init_m.tolist(),
        "init_vars": init_v.tolist(),
        "n_iter": int(gm.n_iter_),
        "converged": bool(gm.converged_),
        "weights": gm.weights_.tolist(),
        "means": gm.means_.tolist(),
        "vars": gm.covariances_.tolist(),
        "score": float(gm.score(gx)),
        "score_samples": gm.score_samples(gx).tolist(),
    }


pcas = [
    pca_case("wide", 12, 30, [11, 0, 5, 3, 8, 1, 9, 2, 10, 6]),  # n <= d: n×n Gram
    pca_case("tall", 40, 7, list(range(39, 2, -1))),  # n > d: d×d Gram
]

# Three overlapping clusters in 3-D, 150 rows.
centres = np.array([[0.0, 0.0, 0.0], [3.0, 1.0, -1.0], [0.5, 4.0, 2.0]])
scales = np.array([[1.0, 0.5, 1.5], [0.7, 1.2, 0.8], [1.1, 0.9, 0.6]])
parts = [rng.normal(size=(50, 3)) * scales[j] + centres[j] for j in range(3)]
GMM_X = np.vstack(parts)

gmms = [
    gmm_case("five", 5, 0.0),  # exactly five EM iterations: the trajectory
    gmm_case("converged", 100000, 1e-13),  # the fixed point
]

json.dump(
    {
        "generator": "testdata/oracle.py, numpy %s, scikit-learn %s" % (np.__version__, sklearn.__version__),
        "pca": pcas,
        "gmm_x": GMM_X.tolist(),
        "gmm": gmms,
    },
    sys.stdout,
    indent=1,
)
sys.stdout.write("\n")

#!/usr/bin/python3
"""Oracle for pueval's classifiers/svm: scikit-learn's SVC (libsvm) on small
weighted problems, and scipy's fit of Platt's objective.

    # the golden file the Go tests compare with (TestSklearnOracle, TestPlattOracle)
    /usr/bin/python3 classifiers/svm/testdata/sklearn_oracle.py \
        > classifiers/svm/testdata/sklearn_oracle.json
    # timing only: median CPU time of SVC.fit on the benchmark problems
    # (the same data as BenchmarkSVMFit in bench_test.go, drawn from the same
    # SplitMix64 stream), repeated R times; compare with
    #   GOMAXPROCS=1 go test ./classifiers/svm -run '^$' -bench SVMFit -count 5
    /usr/bin/python3 classifiers/svm/testdata/sklearn_oracle.py --time R

Every problem: SVC(C, kernel, gamma, tol=TOL, shrinking=False) fitted with
sample_weight (libsvm scales C per instance: C_i = C w_i); the file holds the
inputs, the gamma used, and decision_function on the training rows and on
held-out rows. Written for scikit-learn 1.2.1 (/usr/bin/python3 here).
"""
import json
import statistics
import sys
import time

import numpy as np
import scipy
import scipy.optimize
import sklearn
from sklearn.svm import SVC

TOL = 1e-8


def scale_gamma(x):
    v = x.var()
    return 1.0 / (x.shape[1] * v) if v != 0 else 1.0


def blobs(rng, n, d, sep, pos_frac):
    y = rng.random(n) < pos_frac
    x = rng.normal(size=(n, d))
    x[y, :] += sep / np.sqrt(d)
    return x, y


def sparse_rows(rng, n, d, density, pos_frac):
    y = rng.random(n) < pos_frac
    mask = rng.random((n, d)) < density
    # positives use the first tenth of the vocabulary more often
    extra = (rng.random((n, d)) < 3 * density) & y[:, None] & (np.arange(d) < d // 10)[None, :]
    mask |= extra
    x = np.where(mask, rng.random((n, d)), 0.0)
    norms = np.sqrt((x * x).sum(axis=1))
    norms[norms == 0] = 1
    return x / norms[:, None], y


def problems():
    rng = np.random.default_rng(20140824)
    out = []

    def add(name, x, y, w, kernel, c, gamma, xt):
        out.append(dict(name=name, x=x, y=y, w=w, kernel=kernel, c=c, gamma=gamma, xt=xt))

    x, y = blobs(rng, 80, 2, 2.0, 0.5)
    add("linear-2d-unweighted", x, y, np.ones(80), "linear", 1.0, None, blobs(rng, 30, 2, 2.0, 0.5)[0])
    x, y = blobs(rng, 150, 5, 1.5, 0.3)
    add("linear-5d-weighted-c0.1", x, y, rng.uniform(0.2, 2.0, 150), "linear", 0.1, None, blobs(rng, 40, 5, 1.5, 0.3)[0])
    x, y = blobs(rng, 60, 3, 1.0, 0.5)
    add("linear-3d-weighted-c10", x, y, rng.uniform(0.5, 1.5, 60), "linear", 10.0, None, blobs(rng, 30, 3, 1.0, 0.5)[0])
    x, y = blobs(rng, 120, 4, 2.0, 0.4)
    add("rbf-4d-gamma0.5", x, y, rng.uniform(0.2, 2.0, 120), "rbf", 1.0, 0.5, blobs(rng, 40, 4, 2.0, 0.4)[0])
    x, y = blobs(rng, 200, 10, 2.5, 0.5)
    x = 3 * x + 1
    add("rbf-10d-scale-c10", x, y, np.ones(200), "rbf", 10.0, "scale", 3 * blobs(rng, 40, 10, 2.5, 0.5)[0] + 1)
    # PU-like: positives weight 1, negatives ("unlabeled") weight 0.1
    x, y = blobs(rng, 300, 6, 1.5, 0.2)
    w = np.where(y, 1.0, 0.1)
    add("rbf-6d-pu-weights", x, y, w, "rbf", 1.0, 0.1, blobs(rng, 50, 6, 1.5, 0.2)[0])
    # (with heavy overlap, negatives of weight 0.01 make the optimum w = 0,
    # a degenerate problem on which libsvm needs ~10^7 iterations to reach
    # TOL: the classes are further apart here)
    x, y = blobs(rng, 300, 6, 4.0, 0.2)
    w = np.where(y, 1.0, 0.05)
    add("linear-6d-pu-weights-0.05", x, y, w, "linear", 1.0, None, blobs(rng, 50, 6, 4.0, 0.2)[0])
    # sparse-looking (TF-IDF-like, 5 % density): the sparse storage path
    x, y = sparse_rows(rng, 150, 60, 0.05, 0.4)
    add("linear-sparse", x, y, rng.uniform(0.5, 1.5, 150), "linear", 1.0, None, sparse_rows(rng, 40, 60, 0.05, 0.4)[0])
    x, y = sparse_rows(rng, 150, 60, 0.05, 0.4)
    add("rbf-sparse-scale", x, y, rng.uniform(0.5, 1.5, 150), "rbf", 2.0, "scale", sparse_rows(rng, 40, 60, 0.05, 0.4)[0])
    # Elkan-Noto-like: labeled rows positive; each unlabeled row twice, as a
    # positive of weight w and a negative of weight 1 - w
    x, s = blobs(rng, 70, 3, 2.0, 0.3)
    wu = rng.uniform(0.05, 0.95, 70)
    xs, ys, ws = [], [], []
    for i in range(70):
        if s[i]:
            xs.append(x[i]); ys.append(True); ws.append(1.0)
        else:
            xs.append(x[i]); ys.append(True); ws.append(wu[i])
            xs.append(x[i]); ys.append(False); ws.append(1 - wu[i])
    add("rbf-duplicated-rows", np.array(xs), np.array(ys), np.array(ws), "rbf", 1.0, 0.3, blobs(rng, 30, 3, 2.0, 0.3)[0])
    return out


def fit(p):
    gamma = p["gamma"]
    if p["kernel"] == "rbf" and gamma == "scale":
        gamma = scale_gamma(p["x"])
    kw = dict(C=p["c"], kernel=p["kernel"], tol=TOL, shrinking=False, cache_size=200)
    if p["kernel"] == "rbf":
        kw["gamma"] = gamma
    m = SVC(**kw)
    m.fit(p["x"], p["y"].astype(int), sample_weight=p["w"])
    return m, gamma


def platt_cases():
    """Platt's objective with smoothed targets, minimised by scipy (BFGS)."""
    rng = np.random.default_rng(7)
    cases = []
    for n, shift, pos in [(60, 1.0, 0.5), (200, 0.5, 0.2), (40, 3.0, 0.3)]:
        y = rng.random(n) < pos
        y[0], y[1] = True, False
        f = rng.normal(size=n) + np.where(y, shift, -shift)
        npos, nneg = y.sum(), (~y).sum()
        t = np.where(y, (npos + 1) / (npos + 2), 1 / (nneg + 2))

        def obj(ab):
            z = ab[0] * f + ab[1]
            # t z + log(1 + exp(-z)) == (t - 1) z + log(1 + exp(z))
            return np.sum(t * z + np.logaddexp(0, -z))

        def grad(ab):
            z = ab[0] * f + ab[1]
            p = 1 / (1 + np.exp(z))  # P(y = 1)
            return np.array([np.sum(f * (t - p)), np.sum(t - p)])

        r = scipy.optimize.minimize(obj, [0.0, np.log((nneg + 1) / (npos + 1))], jac=grad,
                                    method="BFGS", options=dict(gtol=1e-12, maxiter=10000))
        cases.append(dict(dec=f.tolist(), y=y.tolist(), a=float(r.x[0]), b=float(r.x[1]),
                          objective=float(r.fun)))
    return cases


def golden():
    out = dict(sklearn=sklearn.__version__, numpy=np.__version__, scipy=scipy.__version__, tol=TOL,
               problems=[], platt=platt_cases())
    for p in problems():
        m, gamma = fit(p)
        out["problems"].append(dict(
            name=p["name"], kernel=p["kernel"], c=p["c"],
            gamma=gamma if p["kernel"] == "rbf" else 0.0,
            gamma_scale=p["gamma"] == "scale",
            x=p["x"].tolist(), y=p["y"].tolist(), w=p["w"].tolist(), xt=p["xt"].tolist(),
            decision=m.decision_function(p["x"]).tolist(),
            decision_test=m.decision_function(p["xt"]).tolist(),
            n_sv=int(m.support_.size), intercept=float(m.intercept_[0])))
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"))
    sys.stdout.write("\n")


# --- benchmark problems: must match bench_test.go ---------------------------

MASK64 = (1 << 64) - 1
GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def uniforms(seed, count):
    """u_i = (splitmix64(seed + (i+1) * 0x9e3779b97f4a7c15) >> 11) * 2^-53, i < count."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + (np.arange(1, count + 1, dtype=np.uint64) * GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def bench_dense(n=1950, d=256):
    """MNIST-like shape: n x d uniform features, a third of the rows are
    positives shifted by 0.25 on the first 64 features; labeled = the even
    positive rows (labeled vs unlabeled is the target)."""
    pos = np.arange(n) % 3 == 0
    x = uniforms(1, n * d).reshape(n, d)
    x[:, :64] += 0.25 * pos[:, None]
    s = pos & (np.arange(n) % 2 == 0)
    return x, s


def bench_sparse(n=1950, d=1000):
    """TF-IDF-like shape: each entry nonzero with probability 0.03 (0.08 on
    the first 100 columns for positives), value uniform, rows L2-normalised."""
    pos = np.arange(n) % 3 == 0
    m = uniforms(2, n * d).reshape(n, d)
    v = uniforms(3, n * d).reshape(n, d)
    prob = np.where(pos[:, None] & (np.arange(d) < 100)[None, :], 0.08, 0.03)
    x = np.where(m < prob, v, 0.0)
    norms = np.sqrt((x * x).sum(axis=1))
    norms[norms == 0] = 1
    x = x / norms[:, None]
    s = pos & (np.arange(n) % 2 == 0)
    return x, s


def timing(reps):
    """Median seconds of SVC.fit on the cases of BenchmarkSVMFit (same data,
    C = 1, gamma = 'scale', tol = 1e-3, sample_weight 1 for the labeled rows
    and w_u for the others), with and without shrinking; the sparse data
    also as a CSR matrix (libsvm's sparse kernels)."""
    import scipy.sparse
    xd, sd = bench_dense()
    xs, ss = bench_sparse()
    cases = [("rbf-dense-1950x256", xd, sd, "rbf", 1.0), ("linear-sparse-1950x1000", xs, ss, "linear", 1.0),
             ("rbf-dense-1950x256-wu0.1", xd, sd, "rbf", 0.1), ("linear-sparse-1950x1000-wu0.1", xs, ss, "linear", 0.1),
             ("linear-dense-1950x256", xd, sd, "linear", 1.0), ("rbf-sparse-1950x1000", xs, ss, "rbf", 1.0)]
    for name, x, s, kernel, wu in cases:
        w = np.where(s, 1.0, wu)
        inputs = [("dense-input", x)]
        if x is xs:
            inputs.append(("csr-input", scipy.sparse.csr_matrix(x)))
        for shrinking in (True, False):
            for label, xx in inputs:
                ts = []
                for _ in range(reps):
                    m = SVC(C=1.0, kernel=kernel, gamma="scale", tol=1e-3, shrinking=shrinking, cache_size=200)
                    t0 = time.process_time()
                    m.fit(xx, s.astype(int), sample_weight=w)
                    ts.append(time.process_time() - t0)
                print(f"{name} {label} shrinking={shrinking}: median {statistics.median(ts) * 1e3:.1f} CPU-ms over {reps} "
                      f"(iterations {m.n_iter_[0]}, n_sv {m.support_.size}, density {np.count_nonzero(x) / x.size:.3f})",
                      flush=True)
    print(f"scikit-learn {sklearn.__version__}, numpy {np.__version__}")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--time":
        timing(int(sys.argv[2]) if len(sys.argv) > 2 else 5)
    else:
        golden()

#!/usr/bin/python3
"""Independent numpy reference for classifiers/kernelauc (golden.json).

Run with the system Python (numpy): /usr/bin/python3 gen_golden.py > golden.json

Written from package kernelauc's description (Sakai, Niu, Sugiyama 2018 PU-AUC with
the squared loss; the AUL paper's PU_AUL), not from any published code:

  closed      for fixed data, centres, sigma, lambda, prior: the weights
              w = (H + lambda I)^-1 h of PU_AUC and PU_AUL. Each is also
              checked here against the normal equations built from the
              explicit pair differences (every (p, u) and (p, p') pair for
              PU_AUC, every (l, a) pair for PU_AUL), so the closed forms
              match the stated pairwise objectives.
  cv          a whole fit with fixed centre indices and fold labels: z-score,
              squared distances, median-heuristic width grid, 5-fold CV table
              of the held-out criterion (brute-force O(n^2) pair sums),
              selection (first best, lambda outer, sigma inner), refit
              weights and scores of a few raw test rows.
"""
import json
import numpy as np

rng = np.random.default_rng(20240516)


def sqdist(X, C):
    return ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)


def system_auc(KP, KU, th):
    HP = KP.T @ KP / len(KP)
    HU = KU.T @ KU / len(KU)
    mP, mU = KP.mean(axis=0), KU.mean(axis=0)
    Kpu = HP - np.outer(mP, mU) - np.outer(mU, mP) + HU
    Kpp = 2 * HP - 2 * np.outer(mP, mP)
    return (Kpu - th * Kpp) / (1 - th), (mP - mU) / (1 - th)


def system_aul(KL, KU):
    KA = np.vstack([KL, KU])
    HL = KL.T @ KL / len(KL)
    HA = KA.T @ KA / len(KA)
    mL, mA = KL.mean(axis=0), KA.mean(axis=0)
    return HL - np.outer(mL, mA) - np.outer(mA, mL) + HA, mL - mA


def solve(H, h, lam):
    return np.linalg.solve(H + lam * np.eye(len(h)), h)


def explicit_auc(KP, KU, th, lam):
    # objective: [mean_{p,u} (1 - w'(k_p - k_u))^2 - th mean_{p,p'} (1 - w'(k_p - k_p'))^2]/(1 - th) + lam |w|^2
    dpu = (KP[:, None, :] - KU[None, :, :]).reshape(-1, KP.shape[1])
    dpp = (KP[:, None, :] - KP[None, :, :]).reshape(-1, KP.shape[1])
    A = (dpu.T @ dpu / len(dpu) - th * dpp.T @ dpp / len(dpp)) / (1 - th)
    r = (dpu.mean(axis=0) - th * dpp.mean(axis=0)) / (1 - th)
    return np.linalg.solve(A + lam * np.eye(len(r)), r)


def explicit_aul(KL, KU, lam):
    KA = np.vstack([KL, KU])
    dla = (KL[:, None, :] - KA[None, :, :]).reshape(-1, KL.shape[1])
    A = dla.T @ dla / len(dla)
    r = dla.mean(axis=0)
    return np.linalg.solve(A + lam * np.eye(len(r)), r)


def l01(m):
    return np.where(m < 0, 1.0, np.where(m == 0, 0.5, 0.0))


def pu_auc_risk(gp, gu, th):
    n_p = len(gp)
    lpu = l01(gp[:, None] - gu[None, :]).mean()
    lpp = l01(gp[:, None] - gp[None, :]).sum() / (n_p * (n_p - 1))
    return (lpu - th * lpp + th / (2 * (n_p - 1))) / (1 - th)


def aul_pu(gl, gu):
    ga = np.concatenate([gl, gu])
    return (1 - l01(gl[:, None] - ga[None, :])).mean()


# ---- closed forms -------------------------------------------------------
d = 3
P = rng.normal(0.8, 1.0, size=(12, d))
U = np.vstack([rng.normal(0.8, 1.0, size=(10, d)), rng.normal(0.0, 1.0, size=(20, d))])
C = rng.normal(0.4, 1.2, size=(6, d))
closed = []
for sigma, lam, prior in [(0.7, 0.1, 0.3), (1.5, 0.01, 0.5), (3.0, 1.0, 0.2), (1.0, 0.001, 0.33)]:
    KP = np.exp(-sqdist(P, C) / (2 * sigma ** 2))
    KU = np.exp(-sqdist(U, C) / (2 * sigma ** 2))
    wa = solve(*system_auc(KP, KU, prior), lam)
    wl = solve(*system_aul(KP, KU), lam)
    ea, el = explicit_auc(KP, KU, prior, lam), explicit_aul(KP, KU, lam)
    assert np.max(np.abs(wa - ea)) <= 1e-9 * max(1, np.max(np.abs(wa))), (wa, ea)
    assert np.max(np.abs(wl - el)) <= 1e-9 * max(1, np.max(np.abs(wl))), (wl, el)
    closed.append({"sigma": sigma, "lambda": lam, "prior": prior,
                   "w_pu_auc": wa.tolist(), "w_pu_aul": wl.tolist()})

# ---- a whole cross-validated fit ----------------------------------------
scale = np.array([1.0, 10.0, 0.1])
shift = np.array([0.0, 50.0, -3.0])
nL, nU, b, k = 15, 40, 10, 5
XL = rng.normal(1.0, 1.0, size=(nL, d)) * scale + shift
XU = np.vstack([rng.normal(1.0, 1.0, size=(12, d)), rng.normal(0.0, 1.0, size=(nU - 12, d))]) * scale + shift
X = np.vstack([XL, XU])
mean = X.mean(axis=0)
sd = X.std(axis=0)  # population (ddof 0)
Z = (X - mean) / sd
centres = rng.permutation(nL + nU)[:b]
foldL = ((np.arange(nL) * k) // nL)[rng.permutation(nL)]
foldU = ((np.arange(nU) * k) // nU)[rng.permutation(nU)]
D = sqdist(Z, Z[centres])
med = np.median(D)
sigmas = np.sqrt(med) * np.logspace(-1, 1, 11)
lambdas = np.logspace(-3, 1, 10)
isL = np.arange(nL + nU) < nL
fold = np.concatenate([foldL, foldU])
Xtest = rng.normal(0.5, 1.0, size=(4, d)) * scale + shift
cv = {}
for method, prior in [("pu-auc", 12 / 40), ("pu-aul", 0.0)]:
    table = np.zeros((len(sigmas), len(lambdas)))
    for si, sigma in enumerate(sigmas):
        K = np.exp(-D / (2 * sigma ** 2))
        for f in range(k):
            tr, te = fold != f, fold == f
            KLtr, KUtr = K[tr & isL], K[tr & ~isL]
            H, h = system_auc(KLtr, KUtr, prior) if method == "pu-auc" else system_aul(KLtr, KUtr)
            for li, lam in enumerate(lambdas):
                w = solve(H, h, lam)
                gl, gu = K[te & isL] @ w, K[te & ~isL] @ w
                c = pu_auc_risk(gl, gu, prior) if method == "pu-auc" else aul_pu(gl, gu)
                table[si, li] += c / k
    best, bs, bl = None, 0, 0
    for li in range(len(lambdas)):
        for si in range(len(sigmas)):
            v = table[si, li]
            if best is None or (v < best if method == "pu-auc" else v > best):
                best, bs, bl = v, si, li
    K = np.exp(-D / (2 * sigmas[bs] ** 2))
    H, h = system_auc(K[isL], K[~isL], prior) if method == "pu-auc" else system_aul(K[isL], K[~isL])
    w = solve(H, h, lambdas[bl])
    Zt = (Xtest - mean) / sd
    st = np.exp(-sqdist(Zt, Z[centres]) / (2 * sigmas[bs] ** 2)) @ w
    cv[method] = {"prior": prior, "table": table.tolist(), "sigma_index": bs, "lambda_index": bl,
                  "w": w.tolist(), "test_scores": st.tolist()}

out = {
    "generator": "testdata/gen_golden.py (numpy %s)" % np.__version__,
    "closed": {"P": P.tolist(), "U": U.tolist(), "centres": C.tolist(), "cases": closed},
    "cv": {"XL": XL.tolist(), "XU": XU.tolist(), "centres": centres.tolist(),
           "foldL": foldL.tolist(), "foldU": foldU.tolist(), "folds": k,
           "median_d2": med, "sigmas": sigmas.tolist(), "lambdas": lambdas.tolist(),
           "Xtest": Xtest.tolist(), "methods": cv},
}
print(json.dumps(out, indent=1))

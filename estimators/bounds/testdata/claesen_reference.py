#!/usr/bin/env python3
"""Independent reference implementation of the Claesen et al. 2015 ROC/PR bounds.

Claesen, Davis, De Smet, De Moor, "Assessing binary classifiers using only positive
and unlabeled data", arXiv 1504.06837v2.

This is NOT the published code (semisup-metrics): it was written from the paper and
from the published code's behaviour as package bounds documents it
(ranks, ECDF step function, DKW band, stored bootstrap band rounded to float32,
surrogate tables with floor/ceil and the clamp, sorted-point trapezoid areas,
known-negative flip), in vectorised numpy so that it shares no code structure with
the Go package it checks (estimators/bounds). It freezes its outputs into

  parity_golden.json    AUC/AUPR of the lower and upper curves on the shared
                        rankings (spec section 1.6 parity rows), and
  credible_golden.json  Beta(1 + npos, 1 + nneg) credible intervals
                        (scipy.stats.beta.ppf; HPD by scipy.optimize.brentq).

Usage (Debian: apt-get install python3-numpy python3-scipy):

  python3 claesen_reference.py /path/to/claesen2015 .

Ties are broken by input order (a stable sort), one table per position: the
published code's convention (the Go package's InputOrder mode).
"""
import csv
import json
import math
import os
import sys

import numpy as np
from scipy import optimize, stats


def read_ranking(path):
    """Returns scores, true labels (bool) and known labels (+1 pos, -1 neg, 0 unlabeled)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    scores = np.array([float(r[head.index("score")]) for r in rows])
    truth = np.array([r[head.index("true_label")] == "1" for r in rows])
    known = np.zeros(len(rows), dtype=int)
    if "known_positive" in head:
        c = head.index("known_positive")
        known[[r[c] == "1" for r in rows]] = 1
    else:
        c = head.index("label")
        for i, r in enumerate(rows):
            known[i] = {"1": 1, "0": -1, "": 0}[r[c]]
    return scores, truth, known


def read_band(path):
    a = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return a[:, 0].astype(np.int64), a[:, 1], a[:, 2]


def positions(scores):
    """0-based rank of each instance: descending score, ties in input order."""
    order = np.argsort(-scores, kind="stable")
    rank = np.empty(len(scores), dtype=np.int64)
    rank[order] = np.arange(len(scores))
    return order, rank


def ecdf(sorted_ranks):
    """Points (rank, (i+1)/n) of the known ranks, with (0, 0) first if the first rank > 0."""
    n = len(sorted_ranks)
    r = np.asarray(sorted_ranks, dtype=np.int64)
    v = np.arange(1, n + 1) / n
    if r[0] > 0:
        r = np.concatenate([[0], r])
        v = np.concatenate([[0.0], v])
    return r, v


def dkw(sorted_ranks, level=0.95):
    r, v = ecdf(sorted_ranks)
    eps = math.sqrt(math.log(2 / (1 - level)) / (2 * len(sorted_ranks)))
    return r, np.clip(v - eps, 0, 1), np.clip(v + eps, 0, 1)


def step(band_ranks, values, n):
    """Right-continuous step function at ranks 0..n-1 (before the first rank: the first value)."""
    i = np.searchsorted(band_ranks, np.arange(n), side="right") - 1
    return values[np.maximum(i, 0)]


def tables(known_sorted, t_lb, t_ub, beta):
    """Lower and upper tables (TP, FP, FN, TN arrays) per rank; known_sorted in rank order."""
    kp = np.cumsum(known_sorted == 1)
    kn = np.cumsum(known_sorted == -1)
    cu = np.cumsum(known_sorted == 0)
    npos, nneg, nunl = kp[-1], kn[-1], cu[-1]
    pu = int(beta * nunl)
    out = []
    for theta in (np.floor(t_lb * pu), np.ceil(t_ub * pu)):
        tpu = np.maximum(np.minimum(cu, theta), pu - (nunl - cu))
        fpu = cu - tpu
        tp = kp + tpu
        fn = (npos - kp) + (pu - tpu)
        fp = kn + fpu
        tn = (nneg - kn) + (nunl - pu - fpu)
        out.append((tp.astype(float), fp.astype(float), fn.astype(float), tn.astype(float)))
    return out


def trapezoid(x, y):
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def areas(tab):
    tp, fp, fn, tn = tab
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    o = np.lexsort((tpr, fpr))
    auc = trapezoid(fpr[o], tpr[o])
    with np.errstate(invalid="ignore", divide="ignore"):
        prec = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
    o = np.lexsort((prec, tpr))
    aupr = trapezoid(tpr[o], prec[o])
    return auc, aupr


def flip_table(tab):
    tp, fp, fn, tn = tab
    return fp, tp, tn, fn


def bound_row(known_sorted, band, n, beta_lo, beta_hi, side):
    """AUC/AUPR of the lower (from beta_lo) and upper (from beta_hi) curves."""
    br, lo, hi = band
    t_lb, t_ub = step(br, lo, n), step(br, hi, n)
    if side == "positives":
        lower, _ = tables(known_sorted, t_lb, t_ub, beta_lo)
        _, upper = tables(known_sorted, t_lb, t_ub, beta_hi)
    else:  # flipped labels, beta' = 1 - beta, tables mapped back, lower <-> upper
        assert beta_lo == beta_hi
        fl, fu = tables(-known_sorted, t_lb, t_ub, 1 - beta_lo)
        lower, upper = flip_table(fu), flip_table(fl)
    (al, pl), (au, pu) = areas(lower), areas(upper)
    return {"auc_lower": al, "auc_upper": au, "aupr_lower": pl, "aupr_upper": pu}


def f32(band):
    r, lo, hi = band
    return r, lo.astype(np.float32).astype(np.float64), hi.astype(np.float32).astype(np.float64)


def auc_by_positions(known_sorted):
    """Known positives vs everything else, ties broken by position (beta = 0 check)."""
    pos = known_sorted == 1
    neg_above = np.cumsum(~pos)  # negatives at ranks <= r
    # each positive at rank r beats the negatives below it
    nn = (~pos).sum()
    return float(np.sum(nn - neg_above[pos]) / (pos.sum() * nn))


def main(data, out):
    files = {
        "covtype_pu5_seed1": [1, 0, 0.88, 1.25],
        "covtype_pu10_seed1": [1, 0, 0.88, 1.25],
    }
    for d in ("d1", "d2", "d3"):
        for kp, kn in (("0.1", "0.0"), ("0.1", "0.4"), ("0.1", "0.8"), ("0.5", "0.0")):
            files[f"sim_{d}_kp{kp}_kn{kn}"] = [0.5, 1, 1.5]
    neg_files = {"sim_d1_kp0.1_kn0.8", "sim_d2_kp0.1_kn0.8", "sim_d3_kp0.1_kn0.8", "sim_d3_kp0.1_kn0.4"}
    rows = []
    for name, factors in files.items():
        scores, truth, known = read_ranking(os.path.join(data, name + ".csv"))
        order, rank = positions(scores)
        ks = known[order]
        n = len(scores)
        nunl = int((known == 0).sum())
        true_beta = (int(truth.sum()) - int((known == 1).sum())) / nunl
        pos_ranks = np.sort(rank[known == 1])
        er, ev = ecdf(pos_ranks)
        bands = {
            "dkw": dkw(pos_ranks),
            "stored-float32": f32(read_band(os.path.join(data, name + "_bootband.csv"))),
        }
        assert np.array_equal(bands["stored-float32"][0], pos_ranks), name
        for factor in factors:
            beta = min(factor * true_beta, 1.0)
            for bname, band in bands.items():
                rows.append({"file": name, "band": bname, "side": "positives", "factor": factor,
                             "beta_low": beta, "beta_high": beta, **bound_row(ks, band, n, beta, beta, "positives")})
            if name in neg_files:
                neg_band = dkw(np.sort(rank[known == -1]))
                rows.append({"file": name, "band": "dkw", "side": "negatives", "factor": factor,
                             "beta_low": beta, "beta_high": beta, **bound_row(ks, neg_band, n, beta, beta, "negatives")})
        if name.startswith("covtype"):
            # Point estimate: the ECDF (rounded to float32) as both band edges.
            band = f32((er, ev, ev))
            rows.append({"file": name, "band": "ecdf-float32", "side": "positives", "factor": 1,
                         "beta_low": true_beta, "beta_high": true_beta,
                         **bound_row(ks, band, n, true_beta, true_beta, "positives")})
            # Figure 5's interval: lower curve at 0.88 beta, upper at 1.25 beta.
            lo, hi = 0.88 * true_beta, 1.25 * true_beta
            rows.append({"file": name, "band": "stored-float32", "side": "positives", "factor": "0.88-1.25",
                         "beta_low": lo, "beta_high": hi,
                         **bound_row(ks, bands["stored-float32"], n, lo, hi, "positives")})
            # beta = 0 equals "U as negative": AUC by positions.
            r0 = bound_row(ks, bands["dkw"], n, 0.0, 0.0, "positives")
            assert abs(r0["auc_lower"] - auc_by_positions(ks)) < 1e-12, name
            assert r0["auc_lower"] == r0["auc_upper"], name
    with open(os.path.join(out, "parity_golden.json"), "w") as f:
        json.dump({"generator": "estimators/bounds/testdata/claesen_reference.py (independent implementation of spec 1.1)",
                   "rows": rows}, f, indent=1)
        f.write("\n")

    cred = []
    for npos, nneg in ((0, 0), (0, 10), (10, 0), (1, 1), (3, 17), (140, 160), (131, 169), (25, 275), (500, 20)):
        for level in (0.9, 0.95, 0.99):
            post = stats.beta(1 + npos, 1 + nneg)
            et = [float(post.ppf((1 - level) / 2)), float(post.ppf((1 + level) / 2))]
            if npos == 0 and nneg == 0:
                hpd = et
            elif npos == 0:
                hpd = [0.0, float(post.ppf(level))]
            elif nneg == 0:
                hpd = [float(post.ppf(1 - level)), 1.0]
            else:
                g = lambda p: post.logpdf(post.ppf(p)) - post.logpdf(post.ppf(p + level))
                p = optimize.brentq(g, 1e-12, 1 - level - 1e-12, xtol=1e-15, rtol=1e-15)
                hpd = [float(post.ppf(p)), float(post.ppf(p + level))]
            cred.append({"positives": npos, "negatives": nneg, "level": level, "equal_tailed": et, "hpd": hpd})
    with open(os.path.join(out, "credible_golden.json"), "w") as f:
        json.dump({"generator": "estimators/bounds/testdata/claesen_reference.py (scipy.stats.beta.ppf, brentq)",
                   "rows": cred}, f, indent=1)
        f.write("\n")
    print(len(rows), "parity rows,", len(cred), "credible rows")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

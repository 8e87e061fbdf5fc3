#!/usr/bin/python3
"""Oracle for pueval's classifiers/gbdt: scikit-learn's
HistGradientBoostingClassifier with the settings of gbdt.DefaultParams, on
the same stratified folds, per data set.

Input: a folder of CSV files written by TestGBDTOracle in package classifiers
(PUEVAL_GBDT_EXPORT=DIR), one per data set, each line
"target,fold,feature_1,...,feature_d".

    # 1. export the nine AUL data sets with their folds (seed 1, k = 5)
    PUEVAL_UCI_MIRROR=/path/to/mirror PUEVAL_GBDT_EXPORT=/tmp/gbdt-oracle \
        go test -count=1 -run TestGBDTOracle ./classifiers/
    # 2. out-of-fold AUCs -> the golden file the Go test compares with
    /usr/bin/python3 classifiers/gbdt/testdata/sklearn_oracle.py /tmp/gbdt-oracle \
        > classifiers/gbdt/testdata/sklearn_oracle.json
    # timing only (benchmarks): median seconds of a 100-round fit on all rows
    # and of the 5-fold out-of-fold scoring, repeated R times
    /usr/bin/python3 classifiers/gbdt/testdata/sklearn_oracle.py --time R /tmp/gbdt-oracle/spambase.csv

Written for scikit-learn 1.2.1 (/usr/bin/python3 here, not the pyenv python3).
"""
import hashlib
import json
import os
import sys
import time

import numpy as np
import sklearn
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import roc_auc_score

SEED = 1  # the seed TestGBDTOracle draws the folds with (GBDTFoldStream)
FOLDS = 5


def model():
    # gbdt.DefaultParams: 31 leaves, learning rate 0.1, 100 rounds, 20 rows
    # per leaf, 255 bins, L2 0, no early stopping. min_gain 0 and min_hessian
    # 1e-3 are scikit-learn's fixed min_gain_to_split and min_hessian_to_split.
    return HistGradientBoostingClassifier(
        loss="log_loss", learning_rate=0.1, max_iter=100, max_leaf_nodes=31,
        max_depth=None, min_samples_leaf=20, l2_regularization=0.0,
        max_bins=255, early_stopping=False, random_state=0)


def load(path):
    a = np.loadtxt(path, delimiter=",", dtype=np.float64, ndmin=2)
    return a[:, 2:], a[:, 0].astype(int), a[:, 1].astype(int)


def oof(X, y, fold):
    k = fold.max() + 1
    p = np.empty(len(y))
    for j in range(k):
        test = fold == j
        p[test] = model().fit(X[~test], y[~test]).predict_proba(X[test])[:, 1]
    return p


def folds_sha256(fold):
    return hashlib.sha256("".join(str(f) for f in fold).encode()).hexdigest()


def golden(folder):
    out = {"sklearn_version": sklearn.__version__, "seed": SEED, "folds": FOLDS,
           "datasets": {}}
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        X, y, fold = load(os.path.join(folder, name))
        assert fold.max() + 1 == FOLDS
        p = oof(X, y, fold)
        out["datasets"][name[:-4]] = {
            "n": int(X.shape[0]), "d": int(X.shape[1]), "positives": int(y.sum()),
            "folds_sha256": folds_sha256(fold),
            "auc": round(float(roc_auc_score(y, p)), 6),
        }
        print(name, out["datasets"][name[:-4]], file=sys.stderr)
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    print()


def timing(repeats, path):
    X, y, fold = load(path)
    fit, cv = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        model().fit(X, y)
        fit.append(time.perf_counter() - t)
        t = time.perf_counter()
        oof(X, y, fold)
        cv.append(time.perf_counter() - t)
    print(json.dumps({"data": os.path.basename(path), "n": X.shape[0], "d": X.shape[1],
                      "fit_s": fit, "oof_s": cv,
                      "fit_median_s": float(np.median(fit)), "oof_median_s": float(np.median(cv))}))


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--time":
        timing(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 2:
        golden(sys.argv[1])
    else:
        sys.exit(__doc__)
